/**
 * A short look inside an output for `outputs show`: first and last lines of text, the outline
 * of JSON, or the size of binary content. Reads only a few lines, never the whole output
 * (except JSON outlines, which parse the document).
 */
import { isSpillwayError } from "../core/errors.js";
import { queryJson } from "../retrieval/json.js";
import { readSlice } from "../retrieval/slice.js";
import type { OpenedOutput, OutputRecord, OutputStore } from "../store/output-store.js";
import { OWNER_SCOPE } from "./context.js";
import { clip, formatBytes, formatCount, printable } from "./format.js";

const EDGE_LINES = 5;
/** Characters one synopsis read may return; longer lines fall back to a character excerpt. */
const MAX_SYNOPSIS_CHARS = 20_000;
const EXCERPT_CHARS = 600;

export interface SynopsisLine {
  readonly line: number;
  readonly text: string;
}

export type Synopsis =
  | {
      readonly type: "lines";
      readonly head: SynopsisLine[];
      readonly tail: SynopsisLine[];
      readonly totalLines: number;
    }
  | { readonly type: "excerpt"; readonly head: string; readonly tail: string }
  | { readonly type: "outline"; readonly outline: string }
  | { readonly type: "binary"; readonly byteSize: number; readonly mediaType: string | null }
  | { readonly type: "none"; readonly reason: string };

async function linesOf(output: OpenedOutput, first: number, last: number): Promise<SynopsisLine[]> {
  const slice = await readSlice(output, {
    lineStart: first,
    lineEnd: last,
    maxChars: MAX_SYNOPSIS_CHARS,
  });
  if (!slice.found || slice.encoding !== "utf-8") return [];
  const texts = slice.text.split("\n");
  if (texts.length > last - first + 1) texts.pop(); // the empty string after a final newline
  return texts.map((text, i) => ({ line: first + i, text: text.replace(/\r$/, "") }));
}

async function textSynopsis(output: OpenedOutput): Promise<Synopsis> {
  const total = output.record.lineCount ?? 0;
  if (total === 0) return { type: "none", reason: "empty output" };
  try {
    if (total <= 2 * EDGE_LINES) {
      return { type: "lines", head: await linesOf(output, 1, total), tail: [], totalLines: total };
    }
    return {
      type: "lines",
      head: await linesOf(output, 1, EDGE_LINES),
      tail: await linesOf(output, total - EDGE_LINES + 1, total),
      totalLines: total,
    };
  } catch (error) {
    if (!isSpillwayError(error, "RANGE_TOO_LARGE")) throw error;
    // Very long lines: show character excerpts from both ends instead.
    const chars = output.record.charCount ?? 0;
    const head = await readSlice(output, { start: 0, length: Math.min(chars, EXCERPT_CHARS) });
    const tailStart = Math.max(0, chars - EXCERPT_CHARS);
    const tail = await readSlice(output, { start: tailStart, length: chars - tailStart });
    return {
      type: "excerpt",
      head: head.found ? head.text : "",
      tail: tail.found ? tail.text : "",
    };
  }
}

/** The synopsis of an output; running and failed outputs have none. */
export async function synopsisOf(store: OutputStore, record: OutputRecord): Promise<Synopsis> {
  if (record.status !== "ready") return { type: "none", reason: `output is ${record.status}` };
  const output = await store.open(record.id, OWNER_SCOPE);
  try {
    if (output.record.kind === "binary") {
      return { type: "binary", byteSize: output.source.size, mediaType: record.mediaType };
    }
    if (output.record.kind === "json" || output.record.kind === "ndjson") {
      try {
        const result = await queryJson(output, { outline: true });
        if (result.kind === "outline") return { type: "outline", outline: result.outline };
      } catch (error) {
        if (!isSpillwayError(error, "INVALID_JSON", "OUTPUT_TOO_LARGE")) throw error;
      }
    }
    return await textSynopsis(output);
  } finally {
    await output.close();
  }
}

/** The synopsis as display lines. */
export function renderSynopsis(synopsis: Synopsis): string[] {
  switch (synopsis.type) {
    case "none":
      return [`(no content: ${synopsis.reason})`];
    case "binary":
      return [
        `binary, ${formatCount(synopsis.byteSize)} bytes (${formatBytes(synopsis.byteSize)})` +
          `${synopsis.mediaType ? `, ${printable(synopsis.mediaType)}` : ""}`,
      ];
    case "outline":
      return [
        "JSON outline:",
        ...synopsis.outline.split("\n").map((line) => `  ${printable(line)}`),
      ];
    case "excerpt":
      return [
        "first characters:",
        `  ${printable(clip(JSON.stringify(synopsis.head), 400))}`,
        "last characters:",
        `  ${printable(clip(JSON.stringify(synopsis.tail), 400))}`,
      ];
    case "lines": {
      const width = String(synopsis.totalLines).length;
      const render = ({ line, text }: SynopsisLine) =>
        `  ${String(line).padStart(width)}  ${printable(clip(text))}`;
      const shown = synopsis.head.length + synopsis.tail.length;
      const title =
        synopsis.tail.length === 0
          ? `all ${formatCount(synopsis.totalLines)} lines:`
          : `first ${synopsis.head.length} and last ${synopsis.tail.length} of ${formatCount(synopsis.totalLines)} lines:`;
      return [
        title,
        ...synopsis.head.map(render),
        ...(synopsis.tail.length > 0
          ? [
              `  ${"…".padStart(width)}  (${formatCount(synopsis.totalLines - shown)} more lines)`,
              ...synopsis.tail.map(render),
            ]
          : []),
      ];
    }
  }
}
