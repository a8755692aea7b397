/**
 * The evaluation's workload: seeded, generated tool outputs of seven kinds and four sizes, each
 * with planted needles at known places, and one task (a question with one exact answer) per
 * needle. No network, no randomness beyond the seed: the same run gives the same bytes.
 *
 * A needle is a record (line, JSON object, CSV row, paragraph) holding a unique cue (an event
 * or order id, or a pattern only a regex finds) and, near it, the answer: `ANS-` and six
 * capital letters or digits, which never occur in filler.
 */

import { createHash } from "node:crypto";
import { Rng } from "../src/core/rng.js";
import {
  BASE32,
  chars,
  FORMATS,
  type Format,
  LETTERS,
  type Needle,
  UPPER,
} from "./workload-formats.js";

export const KINDS = ["log", "json-pretty", "json-min", "csv", "markdown", "code", "cjk"] as const;
export type Kind = (typeof KINDS)[number];

export const SIZES = [
  { label: "50KB", bytes: 50 * 1024 },
  { label: "500KB", bytes: 500 * 1024 },
  { label: "5MB", bytes: 5 * 1024 * 1024 },
  { label: "50MB", bytes: 50 * 1024 * 1024 },
] as const;
export type SizeLabel = (typeof SIZES)[number]["label"];

export const POSITIONS = [
  "start",
  "25%",
  "middle",
  "75%",
  "last",
  "nested-json",
  "regex-only",
  "end-error",
] as const;
export type Position = (typeof POSITIONS)[number];

export interface Task {
  readonly id: string;
  readonly kind: Kind;
  readonly size: SizeLabel;
  readonly position: Position;
  readonly question: string;
  /** The exact expected answer (for the scorer only: no agent ever sees a Task). */
  readonly expected: string;
  /** Character range of the needle (from the first of cue and answer to the end of the last). */
  readonly span: { readonly start: number; readonly end: number };
  /** 1-based line of the answer. */
  readonly line: number;
}

export interface Workload {
  /** `<kind>/<size>`: also the argument of the data server's tool. */
  readonly id: string;
  readonly kind: Kind;
  readonly size: SizeLabel;
  readonly text: string;
  readonly bytes: number;
  readonly sha256: string;
  readonly tasks: readonly Task[];
}

/** The answer of every needle: `ANS-` and six capitals or digits (never in filler). */
export const ANSWER_PATTERN = "ANS-[0-9A-Z]{6}";
/** The regex-only needle: exactly four digits, a dash, four capitals (filler has near misses). */
export const TXN_PATTERN = "\\bTXN-\\d{4}-[A-Z]{4}\\b";

/** Where each needle goes, as a fraction of the filler records (the tail ones go at the end). */
const FRACTIONS: Partial<Record<Position, number>> = {
  start: 0,
  "25%": 0.25,
  middle: 0.5,
  "75%": 0.75,
  "nested-json": 0.4,
  "regex-only": 0.6,
};

function positionsOf(kind: Kind): Position[] {
  const positions: Position[] = ["start", "25%", "middle", "75%", "last", "regex-only"];
  if (kind === "json-pretty" || kind === "json-min") positions.push("nested-json");
  if (kind === "log") positions.push("end-error");
  return positions;
}

function needleFor(rng: Rng, position: Position, kind: Kind): Needle {
  const answer = `ANS-${chars(rng, UPPER, 6)}`;
  if (position === "regex-only")
    return { position, cue: "", answer: `TXN-${rng.range(1000, 9999)}-${chars(rng, LETTERS, 4)}` };
  if (position === "end-error") return { position, cue: "shutdown complete", answer };
  const prefix = kind === "json-pretty" || kind === "json-min" ? "ord" : "evt";
  return { position, cue: `${prefix}_${chars(rng, BASE32, 9)}`, answer };
}

function utf8(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/**
 * Generates one output of `kind` of about `bytes` UTF-8 bytes with its needles and tasks.
 *
 * @example
 * const workload = generateWorkload("log", "5MB", 42);
 * workload.tasks.map((t) => t.position); // ["start", "25%", "middle", "75%", "last", "regex-only", "end-error"]
 */
export function generateWorkload(kind: Kind, size: SizeLabel, seed: number): Workload {
  const format = FORMATS[kind];
  const rng = new Rng(seed);
  const target = SIZES.find((s) => s.label === size)!.bytes;
  const needles = positionsOf(kind).map((position) => needleFor(rng, position, kind));
  const byPosition = new Map(needles.map((n) => [n.position, n]));
  const endError = byPosition.get("end-error");
  const last = byPosition.get("last")!;
  const tailSize = endError ? (format.tail?.(new Rng(1), endError, 0) ?? []) : [];
  const fixed =
    utf8(format.header) +
    utf8(format.footer) +
    tailSize.reduce((sum, r) => sum + utf8(r) + 1, 0) +
    needles.reduce((sum, n) => sum + utf8(format.needle(new Rng(1), n, 0)) + 1, 0);
  const fillerTarget = Math.max(0, target - fixed);
  // Pending needles by the filler byte offset they go at.
  const pending = needles
    .filter((n) => FRACTIONS[n.position] !== undefined)
    .map((n) => ({ needle: n, at: FRACTIONS[n.position]! * fillerTarget }))
    .sort((a, b) => a.at - b.at);
  const records: string[] = [];
  let fillerBytes = 0;
  let index = 0;
  const sepBytes = utf8(format.separator);
  while (fillerBytes < fillerTarget || pending.length > 0) {
    while (pending.length > 0 && pending[0]!.at <= fillerBytes) {
      records.push(format.needle(rng, pending.shift()!.needle, index++));
    }
    if (fillerBytes >= fillerTarget) continue;
    const record = format.filler(rng, index++);
    records.push(record);
    fillerBytes += utf8(record) + sepBytes;
  }
  const tail = endError ? (format.tail?.(rng, endError, index) ?? []) : [];
  index += tail.length;
  records.push(...tail, format.needle(rng, last, index));
  const text = format.header + records.join(format.separator) + format.footer;
  const id = `${kind}/${size}`;
  const tasks = needles.map((needle) => taskOf(text, kind, size, format, needle, id));
  return {
    id,
    kind,
    size,
    text,
    bytes: utf8(text),
    sha256: createHash("sha256").update(text, "utf8").digest("hex"),
    tasks,
  };
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

function taskOf(
  text: string,
  kind: Kind,
  size: SizeLabel,
  format: Format,
  needle: Needle,
  id: string,
): Task {
  const answerAt = text.indexOf(needle.answer);
  if (answerAt === -1 || text.indexOf(needle.answer, answerAt + 1) !== -1)
    throw new Error(`${id}: the ${needle.position} needle's answer must occur exactly once`);
  const base = {
    id: `${id}/${needle.position}`,
    kind,
    size,
    position: needle.position,
    expected: needle.answer,
  };
  if (needle.position === "regex-only") {
    return {
      ...base,
      question:
        "Which transaction id has the form TXN-, four digits, a dash, four capital letters? Exactly one does.",
      span: { start: answerAt, end: answerAt + needle.answer.length },
      line: lineAt(text, answerAt),
    };
  }
  const cueAt =
    needle.position === "end-error" ? text.lastIndexOf(needle.cue) : text.indexOf(needle.cue);
  if (
    cueAt === -1 ||
    text.indexOf(needle.cue) !== cueAt ||
    text.indexOf(needle.cue, cueAt + 1) !== -1
  )
    throw new Error(`${id}: the ${needle.position} needle's cue must occur exactly once`);
  const span = {
    start: Math.min(cueAt, answerAt),
    end: Math.max(cueAt + needle.cue.length, answerAt + needle.answer.length),
  };
  if (needle.position === "end-error") {
    return {
      ...base,
      question:
        'Which error code was logged just before the service shut down ("shutdown complete") at the end of the log?',
      span,
      line: lineAt(text, answerAt),
    };
  }
  if (needle.position === "nested-json") {
    return {
      ...base,
      question: `What is the payment authorization code (payment.auth.code) of order ${needle.cue}?`,
      span,
      line: lineAt(text, answerAt),
    };
  }
  return {
    ...base,
    question: format.question(needle),
    span,
    line: lineAt(text, answerAt),
  };
}
