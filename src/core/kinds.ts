/**
 * Content kind detection from a head sample, a tail sample and line statistics (never the
 * whole output, which may be hundreds of MB). The kind steers synopses, routing and which
 * read modes are offered; a wrong guess never blocks a read (json mode still tries to parse).
 */

/** Every kind an output can be detected as (`kind` on its record). */
export const OUTPUT_KINDS = [
  "json",
  "ndjson",
  "csv",
  "xml",
  "html",
  "markdown",
  "log",
  "text",
  "binary",
] as const;

export type OutputKind = (typeof OUTPUT_KINDS)[number];

export interface KindEvidence {
  /** The first characters of the text (up to ~64K). */
  readonly head: string;
  /** The last characters of the text (up to ~4K; may overlap the head). */
  readonly tail: string;
  readonly totalChars: number;
  /** True when `head` is the whole text. */
  readonly headIsWhole: boolean;
}

const LOG_LINE =
  /^(\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}|\[?\d{2}:\d{2}:\d{2}|[A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2}|\[?(TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|FATAL|CRITICAL)\b)/;
const MARKDOWN_LINE = /^(#{1,6} |\s*[-*+] |\s*\d+\. |```|> |\|.*\|\s*$)/;

/** Complete lines of the head (the last, possibly cut, line is dropped when there are more). */
function headLines(evidence: KindEvidence, max = 200): string[] {
  const lines = evidence.head.split("\n");
  if (!evidence.headIsWhole && lines.length > 1) lines.pop();
  return lines.filter((line) => line.trim().length > 0).slice(0, max);
}

/** `JSON.parse` accepts `text`. */
export function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function looksLikeJson(evidence: KindEvidence): boolean {
  const start = evidence.head.trimStart()[0];
  const end = evidence.tail.trimEnd().slice(-1);
  if (!((start === "{" && end === "}") || (start === "[" && end === "]"))) return false;
  return evidence.headIsWhole ? parsesAsJson(evidence.head) : true;
}

function looksLikeNdjson(lines: string[]): boolean {
  if (lines.length < 2) return false;
  const sample = lines.slice(0, 50);
  return sample.every((line) => {
    const trimmed = line.trim();
    return (trimmed.startsWith("{") || trimmed.startsWith("[")) && parsesAsJson(trimmed);
  });
}

/** Splits a CSV line on commas outside double quotes; returns the field count. */
function csvFieldCount(line: string, separator: string): number {
  let fields = 1;
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (ch === separator && !quoted) fields++;
  }
  return fields;
}

function looksLikeCsv(lines: string[]): boolean {
  if (lines.length < 2) return false;
  const sample = lines.slice(0, 50);
  for (const separator of [",", "\t", ";"]) {
    const counts = sample.map((line) => csvFieldCount(line, separator));
    const first = counts[0] ?? 1;
    if (first >= 2 && counts.filter((c) => c === first).length >= sample.length * 0.9) return true;
  }
  return false;
}

function share(lines: string[], pattern: RegExp): number {
  if (lines.length === 0) return 0;
  return lines.filter((line) => pattern.test(line)).length / lines.length;
}

/**
 * Detects the kind of a text output.
 *
 * @example
 * detectKind({ head: '{"a":1}', tail: '{"a":1}', totalChars: 7, headIsWhole: true }) // "json"
 */
export function detectKind(evidence: KindEvidence): OutputKind {
  const trimmed = evidence.head.trimStart();
  if (trimmed.length === 0) return "text";
  const lines = headLines(evidence);
  if (looksLikeJson(evidence)) return "json";
  if (looksLikeNdjson(lines)) return "ndjson";
  const lower = trimmed.slice(0, 1024).toLowerCase();
  if (
    lower.startsWith("<!doctype html") ||
    lower.startsWith("<html") ||
    /<(head|body)[\s>]/.test(lower)
  ) {
    return "html";
  }
  if (
    lower.startsWith("<?xml") ||
    (trimmed.startsWith("<") && evidence.tail.trimEnd().endsWith(">"))
  ) {
    return "xml";
  }
  if (share(lines, LOG_LINE) >= 0.6) return "log";
  if (looksLikeCsv(lines)) return "csv";
  if (share(lines, MARKDOWN_LINE) >= 0.2 || /^#{1,6} /m.test(evidence.head.slice(0, 4096))) {
    return "markdown";
  }
  return "text";
}
