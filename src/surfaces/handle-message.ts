import { clipText } from "../core/clip-text.js";
import { type SynopsisLine, synopsisOf as synopsisOfOutput } from "../retrieval/synopsis.js";
import type { OutputRecord, OutputStore, ReadScope } from "../store/output-store.js";
import {
  objectQuery,
  outputHolds,
  type TaskLines,
  type TaskTermMatch,
  taskLines,
  taskTermIn,
} from "./task-terms.js";

/** Characters of one synopsis line the model is shown; longer lines say their length. */
const SYNOPSIS_LINE_CHARS = 200;
/** Outline lines shown before the rest is left to mode="json", outline=true. */
const OUTLINE_ROWS = 25;

const number = (n: number | null) => (n ?? 0).toLocaleString("en-US");

const lineRows = (lines: readonly SynopsisLine[]) =>
  lines.map(
    ({ line, text }) => `  ${line}| ${clipText(text, SYNOPSIS_LINE_CHARS, { sayLength: true })}`,
  );

/**
 * A short synopsis of an output for the model (retrieval/synopsis.ts): its JSON outline, or its
 * first and last lines, each clipped and saying so, or, for lines too long to show, its first
 * and last characters. Never the whole output.
 */
export async function synopsisOf(
  outputs: OutputStore,
  record: OutputRecord,
  scope: ReadScope,
  lines: number,
): Promise<string[]> {
  if (record.kind === "binary" || lines === 0) return [];
  const opened = await outputs.open(record.id, scope);
  let synopsis: Awaited<ReturnType<typeof synopsisOfOutput>>;
  try {
    synopsis = await synopsisOfOutput(opened, { edgeLines: lines });
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
    case "lines":
      return synopsis.tail.length === 0
        ? ["Lines:", ...lineRows(synopsis.head)]
        : ["First lines:", ...lineRows(synopsis.head), "Last lines:", ...lineRows(synopsis.tail)];
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
  /** A term of the task that the output holds. */
  readonly found?: TaskTermMatch;
  /** Lines the task asks for by number, inside the output. */
  readonly lines?: TaskLines;
  /**
   * The grep example's pattern when the task names no term the output holds (default
   * `ERROR`); `null` when the output holds no ERROR either, so the example names no pattern
   * that would find nothing.
   */
  readonly grepPattern?: string | null;
}

/**
 * The exact get_tool_output calls that read a text output, one a line (indented), the call
 * the task points to first.
 *
 * @example
 * readCallLines("out_1")[0]; // '  get_tool_output(id="out_1", mode="grep", pattern="ERROR", context=2)   lines matching…'
 */
export function readCallLines(id: string, hints: ReadCallHints = {}): string[] {
  const { jsonQuery, found, lines } = hints;
  const grepPattern = hints.grepPattern === undefined ? "ERROR" : hints.grepPattern;
  const taskTerm = found?.term;
  // The object whose key holds the task's term, whole. Single quotes: nothing to escape inside
  // the call's double-quoted string.
  const query =
    found?.jsonKey !== undefined ? objectQuery(found.jsonKey, `'${found.term}'`) : undefined;
  const span =
    lines &&
    (lines.start === lines.end ? `line ${lines.start}` : `lines ${lines.start}-${lines.end}`);
  // The 1.5B local model made the first example call as shown, whatever its task asked: the
  // lines the task names come first, and a grep for ERROR is shown only where there is one.
  const taskCalls = [
    ...(lines
      ? [
          `  get_tool_output(id="${id}", mode="slice", slice={"line_start": ${lines.start}, "line_end": ${lines.end}})   ${span}, which your task names`,
        ]
      : []),
    // In JSON the object query replaces the grep for the term: the 1.5B model took the grep,
    // whose context lines (symmetric, at most 20) stopped short of the nested field or showed
    // the neighbouring object's, and reported the wrong object's value.
    ...(query !== undefined
      ? [
          `  get_tool_output(id="${id}", mode="json", json_query="${query}")   the whole object whose ${found!.jsonKey} is "${taskTerm}", which your task names`,
        ]
      : taskTerm !== undefined
        ? [
            `  get_tool_output(id="${id}", mode="grep", pattern=${JSON.stringify(taskTerm)}, context=2)   the lines with ${JSON.stringify(taskTerm)}, which your task names and this output holds`,
          ]
        : []),
  ];
  const grep =
    taskTerm !== undefined
      ? []
      : [
          `  get_tool_output(id="${id}", mode="grep", pattern=${JSON.stringify(grepPattern ?? "what to find")}, context=2)   lines matching a literal (regex=true for a regular expression)`,
        ];
  const byNumber = `  get_tool_output(id="${id}", mode="slice", slice={"line_start": 1, "line_end": 50})   lines by number`;
  return [
    ...taskCalls,
    // With nothing to grep for, reading by line number leads.
    ...(grepPattern === null && taskCalls.length === 0 ? [byNumber, ...grep] : [...grep, byNumber]),
    // The anchor example only with a real anchor: the 1.5B model sent "some text" as written.
    ...(taskTerm !== undefined
      ? [
          `  get_tool_output(id="${id}", mode="slice", slice={"anchor": ${JSON.stringify(taskTerm)}, "window": 500})   text around a literal`,
        ]
      : []),
    `  get_tool_output(id="${id}", mode="page", cursor=0)   read in order, page by page`,
    ...(jsonQuery !== undefined
      ? [
          `  get_tool_output(id="${id}", mode="json", json_query=${JSON.stringify(jsonQuery)})   JSONPath query`,
        ]
      : []),
  ];
}

/**
 * The default surface's handle message: first in the tool result, outside any JSON, with the
 * output's size, kind, a synopsis and the exact calls that read it, so that retrieval is hard
 * to skip and inventing the content is plainly wrong.
 */
export async function defaultHandleMessage(
  record: OutputRecord,
  outputs: OutputStore,
  scope: ReadScope,
  synopsisLines: number,
  taskText?: string,
): Promise<string> {
  const id = record.id;
  const size =
    record.kind === "binary"
      ? `${number(record.byteSize)} bytes of binary${record.mediaType ? ` ${record.mediaType}` : ""}`
      : `${number(record.byteSize)} bytes, ${number(record.lineCount)} lines, ~${number(record.tokenEstimate)} tokens, kind ${record.kind}`;
  const head = [
    `[spillway] The output of ${record.toolName} is stored whole as ${id} (${size}).`,
    "It is too large to show here, so its content is NOT in this message. Do not guess it:",
    "read it with get_tool_output, and report only what those reads return.",
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
  const synopsis = await synopsisOf(outputs, record, scope, synopsisLines);
  // The examples point at what the task names (a term the output holds, lines by number) and
  // grep only for what is there: the 1.5B local model made the first example call as shown.
  const term = taskText ? await taskTermIn(outputs, record, scope, taskText) : undefined;
  const lines = taskText ? taskLines(taskText, record.lineCount ?? 0) : undefined;
  const hasError = term === undefined && (await outputHolds(outputs, record, scope, "ERROR"));
  const calls = readCallLines(id, {
    ...(json ? { jsonQuery: exampleJsonQuery(synopsis, record.kind === "ndjson") } : {}),
    ...(term ? { found: term } : {}),
    ...(lines ? { lines } : {}),
    grepPattern: hasError ? "ERROR" : null,
  });
  return [
    ...head,
    "",
    "Read it with:",
    ...calls,
    ...(synopsis.length > 0
      ? ["", ...(taskText ? withoutAskedExamples(synopsis, taskText) : synopsis)]
      : []),
  ].join("\n");
}

/** An outline row of a string field with its first value: `  .code: string, first value "fg1raa"`. */
const FIRST_VALUE_ROW = /^(\s*\.([A-Za-z_$][\w$]*): string), first value "(?:[^"\\]|\\.)*"(.*)$/;

/**
 * The outline rows with the first value left out for a field the task names by its key (`code`
 * in "the payment authorization code (payment.auth.code) of order ord_89309srrp"): the first
 * element's value of the very field asked about is a decoy. The 1.5B local model was shown the
 * named order's whole object three times and still reported the outline's `first value "fg1raa"`.
 *
 * @example
 * withoutAskedExamples(['  .code: string, first value "fg1raa"'], "What is the code of ord_1?");
 * // ['  .code: string, values differ per element (read the one your task names)']
 */
export function withoutAskedExamples(rows: readonly string[], taskText: string): string[] {
  const words = new Set(taskText.toLowerCase().match(/[a-z_$][\w$]*/g) ?? []);
  return rows.map((row) => {
    const match = FIRST_VALUE_ROW.exec(row);
    if (!match || !words.has(match[2]!.toLowerCase())) return row;
    return `${match[1]}, values differ per element (read the one your task names)${match[3]}`;
  });
}
