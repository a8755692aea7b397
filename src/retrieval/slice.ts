import { InvalidArgumentError, InvalidRangeError, SpillwayError } from "../core/errors.js";
import type { OpenedOutput } from "../store/output-store.js";
import { ByteScanner, MAX_LITERAL_BYTES } from "./byte-search.js";
import { DEFAULT_MAX_READ_CHARS, intArg, textReaderOf } from "./common.js";
import {
  type BinaryProvenance,
  binaryProvenanceOf,
  type Provenance,
  provenanceOf,
} from "./provenance.js";
import { checkRequest, sliceRequestSchema } from "./request-schemas.js";

/** Characters returned by a character slice that gives `start` but no `length`. */
export const DEFAULT_SLICE_LENGTH = 4_000;
/** Characters on each side of an anchor when no `window` is given. */
export const DEFAULT_ANCHOR_WINDOW = 1_000;

/**
 * One of three ways to address part of an output:
 * - characters: `start` (default 0) and `length` (default 4000), UTF-16 code units;
 * - lines: `lineStart`..`lineEnd`, 1-based and inclusive (lineEnd defaults to lineStart);
 * - anchor: the `matchIndex`-th (0-based) occurrence of the literal `anchor`, with `window`
 *   characters on each side.
 * For binary outputs, `start`/`length` are byte offsets and the text is base64.
 */
export interface SliceRequest {
  readonly start?: number;
  readonly length?: number;
  readonly lineStart?: number;
  readonly lineEnd?: number;
  readonly anchor?: string;
  readonly window?: number;
  readonly matchIndex?: number;
  /** Largest slice returned, in characters; a larger request fails with RANGE_TOO_LARGE. */
  readonly maxChars?: number;
}

export interface AnchorInfo {
  readonly anchor: string;
  readonly matchIndex: number;
  /** Non-overlapping occurrences of the anchor in the whole output. */
  readonly occurrences: number;
  readonly anchorCharStart: number;
  readonly anchorCharEnd: number;
}

export type SliceResult =
  | {
      readonly mode: "slice";
      readonly found: true;
      readonly encoding: "utf-8";
      readonly text: string;
      readonly provenance: Provenance;
      readonly anchor?: AnchorInfo;
    }
  | {
      readonly mode: "slice";
      readonly found: true;
      readonly encoding: "base64";
      readonly text: string;
      readonly provenance: BinaryProvenance;
    }
  | {
      /** The anchor (or its matchIndex-th occurrence) is not in the output: not an error. */
      readonly mode: "slice";
      readonly found: false;
      readonly anchor: string;
      readonly matchIndex: number;
      readonly occurrences: number;
      readonly outputId: string;
      readonly sha256: string;
    };

function rangeTooLarge(
  outputId: string,
  chars: number,
  maxChars: number,
  hint: string,
  /** Where the requested range starts, for a caller that wants to page from there. */
  cursor?: number,
): SpillwayError {
  return new SpillwayError(
    "RANGE_TOO_LARGE",
    `The requested range of output "${outputId}" holds ${chars > maxChars ? "more than " : ""}${maxChars} characters, ` +
      `over the read limit of ${maxChars}. ${hint}`,
    {
      outputId,
      limit: maxChars,
      modes: ["page", "slice"],
      ...(cursor !== undefined ? { cursor } : {}),
    },
    { fault: "model" },
  );
}

function addressing(request: SliceRequest): "chars" | "lines" | "anchor" {
  const styles: ("chars" | "lines" | "anchor")[] = [];
  if (request.start !== undefined || request.length !== undefined) styles.push("chars");
  if (request.lineStart !== undefined || request.lineEnd !== undefined) styles.push("lines");
  if (request.anchor !== undefined) styles.push("anchor");
  if (styles.length > 1) {
    throw new InvalidArgumentError(
      "slice",
      `mixes ${styles.join(" and ")} addressing`,
      "one of: start/length (characters), lineStart/lineEnd (lines), or anchor/window/matchIndex",
    );
  }
  return styles[0] ?? "chars";
}

/**
 * Reads part of an output by characters, lines or literal anchor, with exact provenance.
 * Boundaries never split a surrogate pair (they widen to keep it whole). An anchor that does
 * not occur is a successful result with `found: false` and its number of occurrences.
 *
 * @example
 * await readSlice(opened, { lineStart: 120, lineEnd: 140 });
 * await readSlice(opened, { anchor: "OutOfMemoryError", window: 500, matchIndex: 1 });
 */
export async function readSlice(
  output: OpenedOutput,
  unchecked: SliceRequest,
): Promise<SliceResult> {
  const request = checkRequest(sliceRequestSchema, unchecked);
  const id = output.record.id;
  const maxChars = intArg("maxChars", request.maxChars, DEFAULT_MAX_READ_CHARS, 1);
  const style = addressing(request);
  if (output.record.kind === "binary") {
    if (style !== "chars") {
      throw new SpillwayError(
        "UNSUPPORTED_KIND",
        `Output "${id}" is binary: slice it by byte range (start, length), not by ${style}.`,
        { outputId: id, kind: "binary", argument: style },
        { fault: "model" },
      );
    }
    return sliceBytes(output, request, maxChars);
  }
  if (style === "lines") return sliceLines(output, request, maxChars);
  if (style === "anchor") return sliceAnchor(output, request, maxChars);
  return sliceChars(output, request, maxChars);
}

async function sliceChars(
  output: OpenedOutput,
  request: SliceRequest,
  maxChars: number,
): Promise<SliceResult> {
  const id = output.record.id;
  const total = output.record.charCount ?? 0;
  const start = intArg("start", request.start, 0, 0, total, id);
  const length = intArg("length", request.length, Math.min(DEFAULT_SLICE_LENGTH, maxChars), 0);
  if (length > maxChars) {
    throw rangeTooLarge(
      id,
      length,
      maxChars,
      `Request at most ${maxChars} characters, or page from cursor ${start}.`,
    );
  }
  const range = await textReaderOf(output, "slice").readChars(
    start,
    Math.min(total, start + length),
  );
  return {
    mode: "slice",
    found: true,
    encoding: "utf-8",
    text: range.text,
    provenance: provenanceOf(output, range),
  };
}

async function sliceLines(
  output: OpenedOutput,
  request: SliceRequest,
  maxChars: number,
): Promise<SliceResult> {
  const id = output.record.id;
  const totalLines = output.record.lineCount ?? 0;
  if (totalLines === 0)
    throw new InvalidRangeError("lineStart", request.lineStart, "none: the output is empty", id);
  const lineStart = intArg("lineStart", request.lineStart, 1, 1, totalLines, id);
  const lineEnd = Math.min(
    totalLines,
    intArg("lineEnd", request.lineEnd, lineStart, lineStart, Number.MAX_SAFE_INTEGER, id),
  );
  const range = await textReaderOf(output, "slice").readLines(lineStart - 1, lineEnd - 1, maxChars);
  const provenance = provenanceOf(output, range);
  if (
    provenance.lineEnd < lineEnd ||
    (range.end.char < (output.record.charCount ?? 0) && !range.end.atLineStart)
  ) {
    throw rangeTooLarge(
      id,
      maxChars + 1,
      maxChars,
      `Request fewer lines, or page from cursor ${range.start.char} (the start of line ${lineStart}).`,
      range.start.char,
    );
  }
  return { mode: "slice", found: true, encoding: "utf-8", text: range.text, provenance };
}

async function sliceAnchor(
  output: OpenedOutput,
  request: SliceRequest,
  maxChars: number,
): Promise<SliceResult> {
  const { record } = output;
  const anchor = request.anchor ?? "";
  const needle = Buffer.from(anchor, "utf8");
  if (anchor.length === 0 || needle.byteLength > MAX_LITERAL_BYTES) {
    throw new InvalidArgumentError(
      "anchor",
      anchor.length === 0 ? "is empty" : `is ${needle.byteLength} bytes long`,
      `a literal string of 1 to ${MAX_LITERAL_BYTES} bytes`,
    );
  }
  const matchIndex = intArg("matchIndex", request.matchIndex, 0, 0);
  const window = intArg("window", request.window, DEFAULT_ANCHOR_WINDOW, 0);
  if (2 * window + anchor.length > maxChars) {
    throw rangeTooLarge(
      record.id,
      2 * window + anchor.length,
      maxChars,
      `Use a window of at most ${Math.floor((maxChars - anchor.length) / 2)}.`,
    );
  }
  const scanner = new ByteScanner(output.source, needle);
  let found: number | null = null;
  let seen = 0;
  while (found === null) {
    const at = await scanner.next();
    if (at === null) break;
    if (seen === matchIndex) found = at;
    seen++;
  }
  const occurrences = seen + (found === null ? 0 : await scanner.countRemaining(false));
  if (found === null) {
    return {
      mode: "slice",
      found: false,
      anchor,
      matchIndex,
      occurrences,
      outputId: record.id,
      sha256: record.sha256,
    };
  }
  const reader = textReaderOf(output, "slice");
  const anchorStart = await reader.positionAtByte(found);
  const anchorCharStart = anchorStart.char;
  const anchorCharEnd = anchorCharStart + anchor.length;
  const range = await reader.readChars(
    Math.max(0, anchorCharStart - window),
    Math.min(record.charCount ?? 0, anchorCharEnd + window),
  );
  return {
    mode: "slice",
    found: true,
    encoding: "utf-8",
    text: range.text,
    provenance: provenanceOf(output, range),
    anchor: { anchor, matchIndex, occurrences, anchorCharStart, anchorCharEnd },
  };
}

async function sliceBytes(
  output: OpenedOutput,
  request: SliceRequest,
  maxChars: number,
): Promise<SliceResult> {
  const id = output.record.id;
  const size = output.source.size;
  const start = intArg("start", request.start, 0, 0, size, id);
  const maxBytes = Math.floor(maxChars / 4) * 3;
  const length = intArg("length", request.length, Math.min(3 * 1024, maxBytes), 0);
  if (length > maxBytes) {
    throw rangeTooLarge(
      id,
      4 * Math.ceil(length / 3),
      maxChars,
      `Request at most ${maxBytes} bytes.`,
    );
  }
  const bytes = await output.source.read(start, length);
  return {
    mode: "slice",
    found: true,
    encoding: "base64",
    text: Buffer.from(bytes).toString("base64"),
    provenance: binaryProvenanceOf(output, start, start + bytes.byteLength),
  };
}
