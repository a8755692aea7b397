import { clipText } from "../core/clip-text.js";
import { type SynopsisLine, synopsisOf as synopsisOfOutput } from "../retrieval/synopsis.js";
import type { OutputRecord, OutputStore, ReadScope } from "../store/output-store.js";
import { formLines, formSectionLines } from "./form-lines.js";
import { type TaskLines, taskLines } from "./task-lines.js";
import type { TaskSearch } from "./task-search.js";
import {
  SYNOPSIS_LINE_CHARS,
  type TaskSection,
  taskSection,
  taskSectionLines,
} from "./task-section.js";
import { thresholdLines, thresholdSectionLines } from "./threshold-lines.js";

/** Outline lines shown before the rest is left to mode="json", outline=true. */
const OUTLINE_ROWS = 25;

const number = (n: number | null) => (n ?? 0).toLocaleString("en-US");

const lineRows = (lines: readonly SynopsisLine[]) =>
  lines.map(
    ({ line, text }) => `  ${line}| ${clipText(text, SYNOPSIS_LINE_CHARS, { sayLength: true })}`,
  );

/** A titled block of synopsis lines, none when every line was left out. */
const titled = (title: string, lines: readonly SynopsisLine[]) =>
  lines.length === 0 ? [] : [title, ...lineRows(lines)];

/**
 * A short synopsis of an output for the model (retrieval/synopsis.ts): its JSON outline, or its
 * first and last lines, each clipped and saying so, or, for lines too long to show, its first
 * and last characters. Never the whole output. Lines in `shownElsewhere` are left out: the
 * message already shows them, and every request carries it. With `outlineOnly`, only a JSON
 * outline is given, its keys and types without first values: it says how to query the
 * document, where first and last lines, and the first record's values, are only positions.
 */
export async function synopsisOf(
  outputs: OutputStore,
  record: OutputRecord,
  scope: ReadScope,
  lines: number,
  shownElsewhere: ReadonlySet<number> = new Set(),
  outlineOnly = false,
): Promise<string[]> {
  if (record.kind === "binary" || lines === 0) return [];
  const opened = await outputs.open(record.id, scope);
  let synopsis: Awaited<ReturnType<typeof synopsisOfOutput>>;
  try {
    // Focused on found lines, the outline leaves out its first values too (SW-72).
    synopsis = await synopsisOfOutput(opened, {
      edgeLines: lines,
      outlineOnly,
      outlineFirstValues: !outlineOnly,
    });
  } finally {
    await opened.close();
  }
  switch (synopsis.type) {
    case "outline": {
      const rows = synopsis.outline.split("\n");
      const shown = rows.slice(0, OUTLINE_ROWS).map((row) => `  ${row}`);
      if (rows.length > OUTLINE_ROWS)
        shown.push(
          `  … ${rows.length - OUTLINE_ROWS} more outline lines (mode="json", outline=true shows all)`,
        );
      return ["Shape (JSON outline):", ...shown];
    }
    case "lines": {
      const fresh = (rows: readonly SynopsisLine[]) =>
        rows.filter((row) => !shownElsewhere.has(row.line));
      return synopsis.tail.length === 0
        ? titled("Lines:", fresh(synopsis.head))
        : [
            ...titled("First lines:", fresh(synopsis.head)),
            ...titled("Last lines:", fresh(synopsis.tail)),
          ];
    }
    case "excerpt":
      return [
        "First characters (the lines are too long to show whole):",
        `  ${clipText(JSON.stringify(synopsis.head), 2 * SYNOPSIS_LINE_CHARS, { sayLength: true })}`,
        "Last characters:",
        `  ${clipText(JSON.stringify(synopsis.tail), 2 * SYNOPSIS_LINE_CHARS, { sayLength: true })}`,
      ];
    default:
      return [];
  }
}

/** A JSONPath example that fits the document's shape (from its outline lines). */
function exampleJsonQuery(synopsis: readonly string[], ndjson: boolean): string {
  const root = synopsis.find((line) => line.trim().startsWith("$:")) ?? "";
  const firstKey = /^\s+(?:\[\*\])?\.([A-Za-z_$][\w$]*):/m.exec(synopsis.slice(2).join("\n"))?.[1];
  if (ndjson || root.includes("array")) return firstKey ? `$[*].${firstKey}` : "$[0]";
  return firstKey ? `$.${firstKey}` : "$";
}

/** What the read examples can draw on besides the output's id. */
export interface ReadCallHints {
  /** A JSONPath example (the output is JSON). */
  readonly jsonQuery?: string;
  /** What a search for the task found: its words, a literal, its best lines. */
  readonly search?: TaskSearch;
  /** Lines the task asks for by number, inside the output. */
  readonly lines?: TaskLines;
}

/** Lines on each side of a search hit in the slice example. */
const SLICE_AROUND = 10;

/**
 * The exact get_tool_output calls that read a text output, one a line (indented). Every value in
 * them is real: the task's words the output holds, a line the search found, the output's own
 * keys; where there is none, the call's shape alone (its argument named, without a value), never
 * a placeholder a model could send as it is.
 *
 * @example
 * readCallLines("out_1", { search: { matches: [], query: "boot marker" } })[0];
 * // '  get_tool_output(id="out_1", mode="search", query="boot marker")   the lines with these words, best first (any language)'
 */
export function readCallLines(id: string, hints: ReadCallHints = {}): string[] {
  const { jsonQuery, search, lines } = hints;
  const span =
    lines &&
    (lines.start === lines.end ? `line ${lines.start}` : `lines ${lines.start}-${lines.end}`);
  const hit = search?.matches[0]?.line;
  const around = hit
    ? { start: Math.max(1, hit - SLICE_AROUND), end: hit + SLICE_AROUND }
    : { start: 1, end: 50 };
  return [
    ...(lines
      ? [
          `  get_tool_output(id="${id}", mode="slice", slice={"line_start": ${lines.start}, "line_end": ${lines.end}})   ${span}, which your task names`,
        ]
      : []),
    search?.query
      ? `  get_tool_output(id="${id}", mode="search", query=${JSON.stringify(search.query)})   the lines with these words, best first (any language)`
      : `  get_tool_output(id="${id}", mode="search", query)   the lines with the words you give, best first (any language)`,
    search?.wholeWords?.[0]
      ? `  get_tool_output(id="${id}", mode="grep", pattern=${JSON.stringify(search.wholeWords[0])}, context=2)   the lines with this exact text (regex=true for a regular expression)`
      : `  get_tool_output(id="${id}", mode="grep", pattern, context)   the lines with an exact text (regex=true for a regular expression)`,
    `  get_tool_output(id="${id}", mode="slice", slice={"line_start": ${around.start}, "line_end": ${around.end}})   lines by number`,
    `  get_tool_output(id="${id}", mode="page", cursor=0)   read in order, page by page`,
    ...(jsonQuery !== undefined
      ? [
          `  get_tool_output(id="${id}", mode="json", json_query=${JSON.stringify(jsonQuery)})   JSONPath query`,
        ]
      : []),
  ];
}

/**
 * The message's first words after its size: the lines it shows are the output's own, exactly as
 * they are in it, which a report may use (the report guards count them as content: SW-25). On
 * fresh live tasks, a message saying instead that the content was not in it, though it showed
 * lines of it, answered no better and cost more tokens (decision SW-38).
 */
const SHOWN_LINES_HEAD = [
  "It is too large to show whole: the lines below are some of its lines, exactly as they are in it, with their numbers, and get_tool_output reads the rest.",
  "Report only what the output's lines say (these or those you read), never a guess.",
];
/** A binary output shows no lines: its content is only what reads return. */
const BINARY_HEAD = [
  "It is too large to show here, so its content is NOT in this message. Do not guess it:",
  "read it with get_tool_output, and report only what those reads return.",
];

/**
 * What the guidance switches change in the handle message (docs/agent-runtime.md lists them);
 * the runtime passes them as one object, so a new switch changes this type and its reader only.
 */
export interface HandleGuidance {
  /** Show the search's best line inside its record (the `taskRecord` guidance switch). */
  readonly taskRecord?: boolean;
  /**
   * Leave out the output's first and last lines, and a JSON outline's first values, when the
   * task search found lines: they are positions, not evidence for the task (the `taskFocus`
   * guidance switch, SW-43 and SW-72).
   */
  readonly taskFocus?: boolean;
  /**
   * When the task compares with a measured number ("over 10 s"), list the lines holding a value
   * past it (the `thresholdLines` guidance switch).
   */
  readonly thresholdLines?: boolean;
  /**
   * When the task names a value by its form ("the IPv6 address", "the 13-digit code"), list the
   * few places holding one (the `formLines` guidance switch).
   */
  readonly formLines?: boolean;
}

/** What the handle message draws on besides the output: the task, the call's own story, the switches. */
export interface HandleOptions extends HandleGuidance {
  /** The session's task: the message searches the output for its words. */
  readonly taskText?: string;
  /** The limiting arguments of the call that were not applied: it was run whole. */
  readonly liftedArguments?: readonly string[];
}

/**
 * The default surface's handle message: first in the tool result, outside any JSON, with the
 * output's size, kind, where a search for the task's words lands, the exact calls that read it
 * and a synopsis, so that retrieval is hard to skip and inventing the content plainly wrong.
 */
export async function defaultHandleMessage(
  record: OutputRecord,
  outputs: OutputStore,
  scope: ReadScope,
  synopsisLines: number,
  options: HandleOptions = {},
): Promise<string> {
  const { taskText, liftedArguments } = options;
  const id = record.id;
  const size =
    record.kind === "binary"
      ? `${number(record.byteSize)} bytes of binary${record.mediaType ? ` ${record.mediaType}` : ""}`
      : `${number(record.byteSize)} bytes, ${number(record.lineCount)} lines, ~${number(record.tokenEstimate)} tokens, kind ${record.kind}`;
  const head = [
    `[spillway] The output of ${record.toolName} is stored whole as ${id} (${size}).`,
    ...(record.kind === "binary" ? BINARY_HEAD : SHOWN_LINES_HEAD),
    ...(liftedArguments && liftedArguments.length > 0
      ? [
          `Your call asked for part of it (${liftedArguments.join(", ")}); the tool was read whole instead, so nothing it holds is out of reach.`,
        ]
      : []),
  ];
  if (record.kind === "binary") {
    return [
      ...head,
      "",
      "Read it with:",
      `  get_tool_output(id="${id}", mode="slice", slice={"start": 0, "length": 3000})   bytes as base64`,
    ].join("\n");
  }
  const json = record.kind === "json" || record.kind === "ndjson";
  // The search for the task is a pointer, not the message: if it cannot run (its deadline, a
  // read refused), the message goes out without it rather than failing the tool call.
  // Lines past a threshold the task states, and values of a form it names, are such pointers
  // too; the scans run together.
  const [section, past, forms] = await Promise.all([
    taskText
      ? taskSection(outputs, record, scope, taskText, options).catch((): TaskSection => ({}))
      : ({} as TaskSection),
    taskText && options.thresholdLines === true
      ? thresholdLines(outputs, record, scope, taskText).catch(() => undefined)
      : undefined,
    taskText && options.formLines === true
      ? formLines(outputs, record, scope, taskText).catch(() => [])
      : [],
  ]);
  const { search } = section;
  const { lines: sectionLines, shown } = taskSectionLines(id, section, options.taskRecord === true);
  const pointed = [
    ...(past?.lines ?? []).map((l) => l.line),
    ...forms.flatMap((f) => f.places.map((p) => p.line)),
  ];
  const shownLines = pointed.length > 0 ? new Set([...(shown ?? []), ...pointed]) : shown;
  // Lines found for the task are the evidence to show; the output's edges are a slice away.
  const focused = options.taskFocus === true && (search?.matches.length ?? 0) > 0;
  const synopsis = await synopsisOf(outputs, record, scope, synopsisLines, shownLines, focused);
  const lines = taskText ? taskLines(taskText, record.lineCount ?? 0) : undefined;
  const calls = readCallLines(id, {
    ...(json ? { jsonQuery: exampleJsonQuery(synopsis, record.kind === "ndjson") } : {}),
    ...(search ? { search } : {}),
    ...(lines ? { lines } : {}),
  });
  return [
    ...head,
    ...sectionLines,
    ...thresholdSectionLines(past),
    ...formSectionLines(forms),
    "",
    "Read it with:",
    ...calls,
    ...(synopsis.length > 0 ? ["", ...synopsis] : []),
  ].join("\n");
}
