import { type ErrorCode, isSpillwayError } from "../core/errors.js";
import { queryJson } from "../retrieval/json.js";
import { readSlice } from "../retrieval/slice.js";
import type { OutputRecord, OutputStore, ReadScope } from "../store/output-store.js";

const SYNOPSIS_LINE_CHARS = 200;
/** JSON outlines are worth parsing for the synopsis only up to this size. */
const OUTLINE_MAX_BYTES = 32 * 1024 * 1024;

const number = (n: number | null) => (n ?? 0).toLocaleString("en-US");

/** A rejection handler that turns the given expected error codes into `undefined`. */
function expected(...codes: ErrorCode[]) {
  return (error: unknown): undefined => {
    if (isSpillwayError(error, ...codes)) return undefined;
    throw error;
  };
}

/** A line cut for the synopsis, saying so. */
function clip(line: string): string {
  const bare = line.replace(/\r?\n$/, "");
  return bare.length > SYNOPSIS_LINE_CHARS
    ? `${bare.slice(0, SYNOPSIS_LINE_CHARS)}… (${number(bare.length)} chars)`
    : bare;
}

async function linesOf(
  outputs: OutputStore,
  record: OutputRecord,
  scope: ReadScope,
  first: number,
  last: number,
): Promise<string[]> {
  const opened = await outputs.open(record.id, scope);
  try {
    // A synopsis is a courtesy: lines too long to show (RANGE_TOO_LARGE) just leave it out.
    const slice = await readSlice(opened, {
      lineStart: first,
      lineEnd: last,
      maxChars: 64 * 1024,
    }).catch(expected("RANGE_TOO_LARGE"));
    if (!slice?.found) return [];
    const lines = slice.text.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    return lines.map((line, i) => `  ${first + i}| ${clip(line)}`);
  } finally {
    await opened.close();
  }
}

async function outlineOf(
  outputs: OutputStore,
  record: OutputRecord,
  scope: ReadScope,
): Promise<string | undefined> {
  if ((record.byteSize ?? 0) > OUTLINE_MAX_BYTES) return undefined;
  const opened = await outputs.open(record.id, scope);
  try {
    const result = await queryJson(opened, { outline: true }).catch(
      expected("INVALID_JSON", "OUTPUT_TOO_LARGE"),
    );
    return result?.kind === "outline" ? result.outline : undefined;
  } finally {
    await opened.close();
  }
}

/**
 * A short synopsis of an output: its JSON outline, or its first and last lines, each line
 * clipped (and saying so). Never the whole output.
 */
export async function synopsisOf(
  outputs: OutputStore,
  record: OutputRecord,
  scope: ReadScope,
  lines: number,
): Promise<string[]> {
  if (record.kind === "binary" || lines === 0) return [];
  if (record.kind === "json" || record.kind === "ndjson") {
    const outline = await outlineOf(outputs, record, scope);
    if (outline) {
      const rows = outline.split("\n");
      const shown = rows.slice(0, 25).map((row) => `  ${row}`);
      if (rows.length > 25)
        shown.push(
          `  … ${rows.length - 25} more outline lines (mode="json", outline=true shows all)`,
        );
      return ["Shape (JSON outline):", ...shown];
    }
  }
  const total = record.lineCount ?? 0;
  if (total <= 2 * lines) {
    return ["Lines:", ...(await linesOf(outputs, record, scope, 1, total))];
  }
  return [
    "First lines:",
    ...(await linesOf(outputs, record, scope, 1, lines)),
    "Last lines:",
    ...(await linesOf(outputs, record, scope, total - lines + 1, total)),
  ];
}

/** A JSONPath example that fits the document's shape (from its outline lines). */
function exampleJsonQuery(synopsis: readonly string[], ndjson: boolean): string {
  const root = synopsis.find((line) => line.trim().startsWith("$:")) ?? "";
  const firstKey = /^\s+(?:\[\*\])?\.([A-Za-z_$][\w$]*):/m.exec(synopsis.slice(2).join("\n"))?.[1];
  if (ndjson || root.includes("array")) return firstKey ? `$[*].${firstKey}` : "$[0]";
  return firstKey ? `$.${firstKey}` : "$";
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
  const calls = [
    `  get_tool_output(id="${id}", mode="grep", pattern="ERROR", context=2)   lines matching a literal (regex=true for a regular expression)`,
    `  get_tool_output(id="${id}", mode="slice", slice={"line_start": 1, "line_end": 50})   lines by number`,
    `  get_tool_output(id="${id}", mode="slice", slice={"anchor": "some text", "window": 500})   text around a literal`,
    `  get_tool_output(id="${id}", mode="page", cursor=0)   read in order, page by page`,
    ...(json
      ? [
          `  get_tool_output(id="${id}", mode="json", json_query=${JSON.stringify(exampleJsonQuery(synopsis, record.kind === "ndjson"))})   JSONPath query`,
        ]
      : []),
  ];
  return [
    ...head,
    "",
    "Read it with:",
    ...calls,
    ...(synopsis.length > 0 ? ["", ...synopsis] : []),
  ].join("\n");
}
