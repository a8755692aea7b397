import { isSpillwayError } from "../core/errors.js";
import type { OpenedOutput } from "../store/output-store.js";
import { queryJson } from "./json.js";
import { readSlice } from "./slice.js";

/** Characters one synopsis read may return; longer lines fall back to a character excerpt. */
const MAX_SYNOPSIS_CHARS = 64 * 1024;
/** Characters of each end shown when the lines are too long to show as lines. */
const EXCERPT_CHARS = 600;
/** JSON outlines are worth parsing for a synopsis only up to this size. */
const DEFAULT_OUTLINE_MAX_BYTES = 32 * 1024 * 1024;

export interface SynopsisLine {
  /** 1-based line number. */
  readonly line: number;
  /** The line without its line ending, unclipped (renderers clip for display). */
  readonly text: string;
}

/** A short look inside an output: never the whole of it. */
export type Synopsis =
  | {
      readonly type: "lines";
      readonly head: SynopsisLine[];
      /** Empty when the head already holds every line. */
      readonly tail: SynopsisLine[];
      readonly totalLines: number;
    }
  | { readonly type: "excerpt"; readonly head: string; readonly tail: string }
  | { readonly type: "outline"; readonly outline: string }
  | { readonly type: "binary"; readonly byteSize: number; readonly mediaType: string | null }
  | { readonly type: "none"; readonly reason: string };

export interface SynopsisOptions {
  /** Lines shown from each end (0: no synopsis). */
  readonly edgeLines: number;
  /** JSON larger than this gets its first and last lines instead of an outline. */
  readonly outlineMaxBytes?: number;
  /** A JSON outline or nothing: the first and last lines are not read. */
  readonly outlineOnly?: boolean;
  /** Give a JSON outline's first value of each string key (default true; see `outlineJson`). */
  readonly outlineFirstValues?: boolean;
}

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

async function textSynopsis(output: OpenedOutput, edgeLines: number): Promise<Synopsis> {
  const total = output.record.lineCount ?? 0;
  if (total === 0) return { type: "none", reason: "empty output" };
  try {
    if (total <= 2 * edgeLines)
      return { type: "lines", head: await linesOf(output, 1, total), tail: [], totalLines: total };
    return {
      type: "lines",
      head: await linesOf(output, 1, edgeLines),
      tail: await linesOf(output, total - edgeLines + 1, total),
      totalLines: total,
    };
  } catch (error) {
    if (!isSpillwayError(error, "RANGE_TOO_LARGE")) throw error;
    // Lines too long to show as lines (minified JSON, one huge line): both ends, as characters.
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

/**
 * A short look inside an opened output, the one synopsis behind the handle message and
 * `outputs show`: the JSON outline of JSON, else the first and last lines, else (lines too
 * long) the first and last characters; binary outputs give their size. Reads only what it
 * shows (a JSON outline parses the document, up to `outlineMaxBytes`).
 *
 * @example
 * const synopsis = await synopsisOf(opened, { edgeLines: 5 });
 * if (synopsis.type === "lines") console.log(synopsis.head.map((l) => `${l.line}| ${l.text}`));
 */
export async function synopsisOf(
  output: OpenedOutput,
  options: SynopsisOptions,
): Promise<Synopsis> {
  const record = output.record;
  if (record.kind === "binary")
    return { type: "binary", byteSize: record.byteSize ?? 0, mediaType: record.mediaType };
  if (options.edgeLines <= 0) return { type: "none", reason: "no synopsis asked for" };
  const outlineMax = options.outlineMaxBytes ?? DEFAULT_OUTLINE_MAX_BYTES;
  if (
    (record.kind === "json" || record.kind === "ndjson") &&
    (record.byteSize ?? 0) <= outlineMax
  ) {
    try {
      const result = await queryJson(output, {
        outline: true,
        outlineFirstValues: options.outlineFirstValues ?? true,
      });
      if (result.kind === "outline") return { type: "outline", outline: result.outline };
    } catch (error) {
      if (!isSpillwayError(error, "INVALID_JSON", "OUTPUT_TOO_LARGE")) throw error;
    }
  }
  if (options.outlineOnly) return { type: "none", reason: "only an outline was asked for" };
  return textSynopsis(output, options.edgeLines);
}
