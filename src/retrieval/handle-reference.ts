import { createHash } from "node:crypto";
import {
  InvalidArgumentError,
  InvalidRangeError,
  OutputFailedError,
  OutputNotReadyError,
  OutputTooLargeError,
  SpillwayError,
  StoreCorruptError,
} from "../core/errors.js";
import { looksLikeOutputId } from "../core/ids.js";
import type { TextPosition } from "../store/line-index.js";
import type { OpenedOutput, OutputStore, ReadScope } from "../store/output-store.js";
import { textReaderOf } from "./common.js";

/**
 * Handle references: `spillway://outputs/<id>`, optionally with a range (`?lines=100-200`,
 * 1-based and inclusive; `?chars=0-4000`, 0-based and end-exclusive; an open end such as
 * `?lines=100-` reads to the end). A reference names stored content exactly; it is resolved
 * to the stored bytes (never a copy the model typed), so an output can be passed into another
 * tool without passing through a model's context.
 */

/** What every handle reference starts with. */
export const HANDLE_REFERENCE_PREFIX = "spillway://outputs/";

/** A range of an output: lines (1-based, inclusive) or characters (0-based, end-exclusive). */
export type HandleRange =
  | { readonly unit: "lines"; readonly start: number; readonly end?: number }
  | { readonly unit: "chars"; readonly start: number; readonly end?: number };

/** A parsed handle reference. */
export interface HandleReference {
  readonly uri: string;
  readonly outputId: string;
  readonly range?: HandleRange;
}

const VALID_FORMS =
  'spillway://outputs/<id>, spillway://outputs/<id>?lines=<first>-<last> (1-based, inclusive; "<first>-" to the end) ' +
  'or spillway://outputs/<id>?chars=<start>-<end> (0-based, end exclusive; "<start>-" to the end), ' +
  'with an output id such as "out_5k2v…"';

function malformed(uri: string, problem: string): InvalidArgumentError {
  return new InvalidArgumentError(`handle reference ${JSON.stringify(uri)}`, problem, VALID_FORMS);
}

function parseRange(uri: string, query: string): HandleRange {
  const match = /^(lines|chars)=(\d{1,15})-(\d{0,15})$/.exec(query);
  if (!match) {
    throw malformed(uri, `the range "?${query}" is not lines=A-B or chars=A-B`);
  }
  const unit = match[1] as "lines" | "chars";
  const start = Number(match[2]);
  const end = match[3] === "" ? undefined : Number(match[3]);
  if (unit === "lines" && start < 1) throw malformed(uri, "lines start at 1");
  if (end !== undefined && end < start) {
    throw malformed(uri, `the range ends (${end}) before it starts (${start})`);
  }
  return { unit, start, ...(end === undefined ? {} : { end }) };
}

/**
 * Parses a handle reference. Returns `undefined` for a string that does not start with
 * `spillway://outputs/` (it is not a reference at all); throws INVALID_ARGUMENT, naming the
 * reference and the valid forms, for one that starts so but is malformed.
 *
 * @example
 * parseHandleReference("spillway://outputs/out_5k2v9w1q?lines=100-200");
 * // { uri: "…", outputId: "out_5k2v9w1q", range: { unit: "lines", start: 100, end: 200 } }
 * parseHandleReference("hello"); // undefined
 */
export function parseHandleReference(text: string): HandleReference | undefined {
  if (!text.startsWith(HANDLE_REFERENCE_PREFIX)) return undefined;
  const rest = text.slice(HANDLE_REFERENCE_PREFIX.length);
  const question = rest.indexOf("?");
  const outputId = question === -1 ? rest : rest.slice(0, question);
  if (!looksLikeOutputId(outputId)) {
    throw malformed(text, `"${outputId}" is not an output id`);
  }
  if (question === -1) return { uri: text, outputId };
  return { uri: text, outputId, range: parseRange(text, rest.slice(question + 1)) };
}

/**
 * The handle reference of an output, or of a range of it.
 *
 * @example
 * handleReferenceUri("out_5k2v9w1q", { unit: "chars", start: 0, end: 4000 });
 * // "spillway://outputs/out_5k2v9w1q?chars=0-4000"
 */
export function handleReferenceUri(outputId: string, range?: HandleRange): string {
  const base = `${HANDLE_REFERENCE_PREFIX}${outputId}`;
  if (!range) return base;
  return `${base}?${range.unit}=${range.start}-${range.end ?? ""}`;
}

/** A resolved reference: the exact stored content it names, and where it comes from. */
export interface ResolvedReference {
  readonly reference: HandleReference;
  /** The content: UTF-8 text, or base64 for a binary output. */
  readonly text: string;
  readonly encoding: "utf-8" | "base64";
  readonly toolName: string;
  readonly mediaType: string | null;
  /** The stored bytes this is, [byteStart, byteEnd). */
  readonly byteStart: number;
  readonly byteEnd: number;
  /** SHA-256 of exactly these bytes (for a whole output: checked against its record). */
  readonly sha256: string;
  /** SHA-256 of the whole stored output. */
  readonly outputSha256: string;
  /** For text: characters [charStart, charEnd) and lines lineStart..lineEnd (1-based). */
  readonly charStart?: number;
  readonly charEnd?: number;
  readonly lineStart?: number;
  readonly lineEnd?: number;
}

/** Options of {@link resolveHandleReference}. */
export interface ResolveReferenceOptions {
  /** The most bytes the reference may name; more is OUTPUT_TOO_LARGE naming this limit. */
  readonly maxBytes: number;
  /** What the limit is called in messages (e.g. "--max-reference-bytes"). Default "maxBytes". */
  readonly limitName?: string;
}

type ByteSpan = { start: TextPosition | null; end: TextPosition | null; from: number; to: number };

async function spanOf(opened: OpenedOutput, reference: HandleReference): Promise<ByteSpan> {
  const { record } = opened;
  const range = reference.range;
  const total = opened.source.size;
  if (!range) return { start: null, end: null, from: 0, to: total };
  if (!opened.index) {
    throw new SpillwayError(
      "UNSUPPORTED_KIND",
      `Handle reference ${reference.uri}: output ${record.id} is binary (${total} bytes), so it has no ` +
        `lines or characters; refer to it whole as ${handleReferenceUri(record.id)} (it is passed as base64).`,
      { outputId: record.id, kind: "binary", reference: reference.uri },
      { fault: "model" },
    );
  }
  const reader = textReaderOf(opened, "slice");
  const totalChars = record.charCount ?? 0;
  const totalLines = record.lineCount ?? 0;
  if (range.unit === "chars") {
    if (range.start > totalChars) {
      throw new InvalidRangeError("chars", `${range.start}-`, `0..${totalChars}`, record.id);
    }
    const start = await reader.positionAtChar(range.start);
    const end = await reader.positionAtChar(Math.min(range.end ?? totalChars, totalChars));
    return { start, end, from: start.byte, to: end.byte };
  }
  if (range.start > totalLines) {
    throw new InvalidRangeError(
      "lines",
      `${range.start}-${range.end ?? ""}`,
      `1..${totalLines}`,
      record.id,
    );
  }
  const start = await reader.positionAtLine(range.start - 1);
  const last = Math.min(range.end ?? totalLines, totalLines);
  const end =
    last >= totalLines
      ? { char: totalChars, byte: total, line: totalLines, atLineStart: true }
      : await reader.positionAtLine(last);
  return { start, end: end as TextPosition, from: start.byte, to: end.byte };
}

/**
 * Resolves a handle reference to the exact stored bytes it names, read from the output store
 * in `scope`. A whole output is checked against its record's SHA-256 (STORE_CORRUPT on a
 * mismatch); every result carries the SHA-256 of exactly the bytes returned. More than
 * `maxBytes` is refused with OUTPUT_TOO_LARGE naming the limit and suggesting a range; nothing
 * is ever cut.
 *
 * @example
 * const ref = parseHandleReference("spillway://outputs/out_5k2v9w1q?lines=1-100")!;
 * const resolved = await resolveHandleReference(store, ref, { sessionId: "ses_1" }, { maxBytes: 8 << 20 });
 * resolved.text; // lines 1-100, exactly as stored
 */
export async function resolveHandleReference(
  store: OutputStore,
  reference: HandleReference,
  scope: ReadScope,
  options: ResolveReferenceOptions,
): Promise<ResolvedReference> {
  const record = await store.get(reference.outputId, scope);
  if (record.status === "running") throw new OutputNotReadyError(record.id, record.toolName);
  if (record.status === "failed") {
    throw new OutputFailedError(record.id, record.toolName, record.error ?? "unknown error");
  }
  const opened = await store.open(reference.outputId, scope);
  try {
    const span = await spanOf(opened, reference);
    const bytes = span.to - span.from;
    if (bytes > options.maxBytes) throw tooLarge(reference, bytes, opened, options);
    const data = Buffer.from(await opened.source.read(span.from, bytes));
    const sha256 = createHash("sha256").update(data).digest("hex");
    const whole = span.from === 0 && span.to === opened.source.size;
    if (whole && sha256 !== opened.record.sha256) {
      throw new StoreCorruptError(
        `Output ${record.id} does not match its SHA-256: the record says ${opened.record.sha256}, ` +
          `its stored bytes hash to ${sha256}. The handle reference ${reference.uri} was not used.`,
        { outputId: record.id, expectedSha256: opened.record.sha256, actualSha256: sha256 },
      );
    }
    const binary = opened.index === null;
    await store.countRead(record.id);
    return {
      reference,
      text: binary ? data.toString("base64") : data.toString("utf8"),
      encoding: binary ? "base64" : "utf-8",
      toolName: record.toolName,
      mediaType: record.mediaType,
      byteStart: span.from,
      byteEnd: span.to,
      sha256,
      outputSha256: opened.record.sha256,
      ...(binary ? {} : textSpan(span, opened)),
    };
  } finally {
    await opened.close();
  }
}

function textSpan(
  span: ByteSpan,
  opened: OpenedOutput,
): Pick<ResolvedReference, "charStart" | "charEnd" | "lineStart" | "lineEnd"> {
  const start = span.start ?? { char: 0, line: 0 };
  const endChar = span.end?.char ?? opened.record.charCount ?? 0;
  const endLine = span.end ? span.end.line : (opened.record.lineCount ?? 0);
  const atLineStart = span.end ? span.end.atLineStart : true;
  return {
    charStart: start.char,
    charEnd: endChar,
    lineStart: start.line + 1,
    lineEnd: endChar === start.char ? start.line + 1 : atLineStart ? endLine : endLine + 1,
  };
}

function tooLarge(
  reference: HandleReference,
  bytes: number,
  opened: OpenedOutput,
  options: ResolveReferenceOptions,
): OutputTooLargeError {
  const { record } = opened;
  const limitName = options.limitName ?? "maxBytes";
  const hint = opened.index
    ? ` Pass a part of it instead, e.g. ${handleReferenceUri(record.id, { unit: "lines", start: 1, end: 1000 })}, or raise ${limitName}.`
    : ` Raise ${limitName} to pass it.`;
  return new OutputTooLargeError(
    `Handle reference ${reference.uri} names ${bytes.toLocaleString("en-US")} bytes, over the limit of ` +
      `${options.maxBytes.toLocaleString("en-US")} bytes (${limitName}); the call was not made.${hint}`,
    {
      outputId: record.id,
      byteSize: bytes,
      limit: options.maxBytes,
      limitUnit: "bytes",
    },
  );
}
