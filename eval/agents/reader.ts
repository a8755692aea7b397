/**
 * How a scripted agent reads an answer out of text it was shown, the way a model reads it:
 * find the record the question names (the line, or the JSON object holding the id), then the
 * value whose key or phrase matches the question's words (`refund_ref=…`, `"code": "…"`,
 * `REFUND_REFERENCE = "…"`, "the refund reference is …"), else the one code-like token of that
 * record. It knows nothing of how the evaluation's outputs were generated: no answer format,
 * no position, no window.
 */
import type { Question } from "./question.js";

export type Reading =
  /** A value, and the lines of the text that hold it and its cue (verbatim, for quoting). */
  | { readonly kind: "answer"; readonly value: string; readonly lines: readonly string[] }
  /** The cue is in view but its record is cut off, or shows no value for the question. */
  | { readonly kind: "partial" }
  /** The cue is not in view. */
  | { readonly kind: "none" };

interface Candidate {
  readonly key: string;
  readonly value: string;
  readonly at: number;
  /** How well the key matches the question's words (0: not at all). */
  readonly score: number;
}

const PAIR_PATTERNS: readonly RegExp[] = [
  // key=value, key="value"
  /([A-Za-z_][\w.-]*)=(?:"([^"]*)"|([^\s,;"&]+))/g,
  // "key": "value" or "key": 42 (also JSON-escaped inside a quoted string)
  /\\?"([\w.$-]+)\\?"\s*:\s*(?:\\?"((?:[^"\\]|\\[^"])*?)\\?"|([-\w.]+))/g,
  // NAME = "value" (a constant)
  /\b([A-Za-z_]\w*)\s+=\s+"([^"]*)"()/g,
  // snake_key VALUE inside prose ("refund_ref ANS-…")
  /\b([a-z]+_[a-z_]+)\s+([A-Z0-9][A-Za-z0-9-]{3,})()/g,
];

/** A code-like token: capitals and digits joined by dashes (`ABC-12X4`). */
const CODE_LIKE = /(?<![\w-])[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+(?![\w-])/g;

function keyWords(key: string): string[] {
  return key
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length >= 2);
}

/** How many of the key's words match a question word (equal, or one a 3+ letter prefix of the other). */
export function keyScore(key: string, attribute: readonly string[]): number {
  return keyWords(key).filter((k) =>
    attribute.some(
      (w) => w === k || (k.length >= 3 && w.startsWith(k)) || (w.length >= 3 && k.startsWith(w)),
    ),
  ).length;
}

const clean = (value: string) =>
  value
    .trim()
    .replace(/^["'`]+|["'`;,.)]+$/g, "")
    .trim();

function candidatesIn(q: Question, text: string, exclude: string): Candidate[] {
  const found: Candidate[] = [];
  for (const pattern of PAIR_PATTERNS) {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
      const value = clean(m[2] ?? m[3] ?? "");
      if (!value || value === exclude || value.includes(" ")) continue;
      found.push({ key: m[1]!, value, at: m.index, score: keyScore(m[1]!, q.attribute) });
    }
  }
  const words = q.attribute.filter((w) => w.length >= 3);
  if (words.length > 0) {
    const phrase = new RegExp(`${words.join("\\s+")}\\s+(?:is|was|are|:|=)\\s+(\\S+)`, "gi");
    for (let m = phrase.exec(text); m; m = phrase.exec(text)) {
      const value = clean(m[1]!);
      if (value && value !== exclude)
        found.push({ key: words.join("_"), value, at: m.index, score: words.length });
    }
  }
  return found;
}

/** The value for the question in one record: its best-matching key, else its one code-like token. */
function valueIn(
  q: Question,
  record: string,
  exclude: string,
  fallback: boolean,
): string | undefined {
  if (q.fieldPath) {
    const walked = walkJson(record, q.fieldPath);
    if (walked !== undefined) return walked;
  }
  const scored = candidatesIn(q, record, exclude).filter((c) => c.score > 0);
  if (scored.length > 0) {
    const best = Math.max(...scored.map((c) => c.score));
    return scored.find((c) => c.score === best)!.value;
  }
  if (!fallback) return undefined;
  const codes = (record.match(CODE_LIKE) ?? []).filter((t) => t !== exclude);
  return codes[0];
}

function walkJson(record: string, path: readonly string[]): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(record) as unknown;
  } catch {
    return undefined;
  }
  for (const key of path) {
    if (typeof value !== "object" || value === null || !(key in value)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return typeof value === "string" || typeof value === "number" ? String(value) : undefined;
}

function lineAround(text: string, at: number): { start: number; end: number } {
  const start = text.lastIndexOf("\n", at - 1) + 1;
  const newline = text.indexOf("\n", at);
  return { start, end: newline === -1 ? text.length : newline };
}

/**
 * The record holding the cue at `at`: the JSON object around it when the cue is a JSON string
 * value (complete when its closing brace is in view), else its line.
 */
function recordAround(text: string, at: number): { start: number; end: number; complete: boolean } {
  const isJsonValue = /\\?"[\w.$-]+\\?"\s*:\s*\\?"$/.test(text.slice(Math.max(0, at - 80), at));
  if (!isJsonValue) return { ...lineAround(text, at), complete: true };
  let depth = 0;
  let start = -1;
  for (let i = at - 1; i >= 0; i--) {
    const c = text[i];
    if (c === "}") depth++;
    else if (c === "{") {
      if (depth === 0) {
        start = i;
        break;
      }
      depth--;
    }
  }
  if (start === -1) return { start: 0, end: text.length, complete: false };
  depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return { start, end: i + 1, complete: true };
  }
  return { start, end: text.length, complete: false };
}

/** The lines of `text` that hold `value` and the cue at `cueAt`, verbatim. */
function linesOf(
  text: string,
  record: { start: number; end: number },
  value: string,
  cueAt: number,
) {
  const cueLine = lineAround(text, cueAt);
  const valueAt = text.indexOf(value, record.start);
  const lines = [text.slice(cueLine.start, cueLine.end)];
  if (valueAt !== -1) {
    const valueLine = lineAround(text, valueAt);
    if (valueLine.start !== cueLine.start) lines.push(text.slice(valueLine.start, valueLine.end));
  }
  return lines;
}

function occurrences(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) out.push(at);
  return out;
}

/**
 * Reads the answer to `q` from `text`, or says whether its cue is in view at all.
 *
 * @example
 * readAnswer(parseQuestion("What is the refund reference recorded for event evt_1a2b3c4d5?"),
 *   "12:00 WARN event=evt_1a2b3c4d5 refund_ref=RF-99 msg=ok");
 * // { kind: "answer", value: "RF-99", lines: ["12:00 WARN event=evt_1a2b3c4d5 refund_ref=RF-99 msg=ok"] }
 */
export function readAnswer(q: Question, text: string): Reading {
  if (q.id) {
    const seen = occurrences(text, q.id);
    for (const at of seen) {
      const record = recordAround(text, at);
      // A record cut off (its object's brace not in view) is not read: its value may be elsewhere.
      if (!record.complete) continue;
      const value = valueIn(q, text.slice(record.start, record.end), q.id, true);
      if (value) return { kind: "answer", value, lines: linesOf(text, record, value, at) };
    }
    return seen.length > 0 ? { kind: "partial" } : { kind: "none" };
  }
  if (q.pattern) {
    const m = new RegExp(q.pattern).exec(text);
    if (!m) return { kind: "none" };
    const line = lineAround(text, m.index);
    return { kind: "answer", value: m[0], lines: [text.slice(line.start, line.end)] };
  }
  if (q.phrase) {
    const seen = occurrences(text, q.phrase);
    if (seen.length === 0) return { kind: "none" };
    const at = q.atEnd ? seen.at(-1)! : seen[0]!;
    if (!q.before) {
      const record = recordAround(text, at);
      const value = record.complete
        ? valueIn(q, text.slice(record.start, record.end), q.phrase, true)
        : undefined;
      return value
        ? { kind: "answer", value, lines: linesOf(text, record, value, at) }
        : { kind: "partial" };
    }
    // Just before the phrase: the nearest line above it that holds a value for the question.
    let end = lineAround(text, at).start - 1;
    for (let n = 0; n < 12 && end > 0; n++) {
      const line = lineAround(text, end);
      const value = valueIn(q, text.slice(line.start, line.end), q.phrase, false);
      if (value) return { kind: "answer", value, lines: [text.slice(line.start, line.end)] };
      end = line.start - 1;
    }
    return { kind: "partial" };
  }
  return { kind: "none" };
}
