/**
 * Human rendering: sizes, counts, times, tables and output records. Sizes are decimal
 * (1 MB = 1,000,000 bytes), like `--size-mb`.
 */

import { clipText } from "../core/clip-text.js";
import type { Provenance } from "../retrieval/provenance.js";
import type { OutputRecord } from "../store/output-store.js";
import { printable } from "./terminal-text.js";

const UNITS = ["B", "kB", "MB", "GB", "TB"] as const;

/** 12345678 → "12.3 MB"; 512 → "512 B". */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  if (unit === 0) return `${bytes} B`;
  return `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ${UNITS[unit]}`;
}

/** 1234567 → "1,234,567". */
export function formatCount(value: number): string {
  return value.toLocaleString("en-US");
}

/** 1234567 → "1.2M"; 12345 → "12.3k"; 999 → "999". */
export function formatCompact(value: number): string {
  if (value < 1000) return String(value);
  if (value < 1_000_000) return `${(value / 1000).toFixed(1)}k`;
  if (value < 1_000_000_000) return `${(value / 1_000_000).toFixed(1)}M`;
  return `${(value / 1_000_000_000).toFixed(1)}G`;
}

/** Milliseconds since the epoch → local "2026-03-14 09:26:53". */
export function formatTime(ms: number): string {
  const date = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, "0");
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

/** 12.3 → "12 ms"; 1530 → "1.53 s". */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

/** The first 12 hex digits of a SHA-256, for headers; the full hash is in `show`/`--json`. */
export function shortSha(sha256: string): string {
  return `${sha256.slice(0, 12)}…`;
}

/** How a token figure was made, in words (e.g. from `sampled:o200k_base:64x2048`). */
export function describeTokenMethod(method: string | null): string {
  if (!method) return "unknown method";
  const [how, tokenizer, shape] = method.split(":");
  if (how === "exact") return `counted exactly with ${tokenizer}`;
  if (how === "sampled" && shape) {
    const [samples, chars] = shape.split("x");
    return (
      `estimated: ${samples} evenly spaced samples of ${formatCount(Number(chars))} chars ` +
      `counted with ${tokenizer}, extrapolated to the whole output`
    );
  }
  if (how === "none") return "not applicable (binary)";
  return method;
}

export interface Column<Row> {
  readonly header: string;
  readonly value: (row: Row) => string;
  readonly align?: "left" | "right";
}

/** A plain text table: a header row, then one row per item, columns padded to fit. */
export function table<Row>(rows: readonly Row[], columns: readonly Column<Row>[]): string[] {
  const cells = rows.map((row) => columns.map((column) => printable(column.value(row))));
  const widths = columns.map((column, i) =>
    Math.max(column.header.length, ...cells.map((row) => row[i]!.length)),
  );
  const render = (values: readonly string[]) =>
    values
      .map((value, i) =>
        columns[i]!.align === "right" ? value.padStart(widths[i]!) : value.padEnd(widths[i]!),
      )
      .join("  ")
      .trimEnd();
  return [render(columns.map((column) => column.header)), ...cells.map(render)];
}

/** Aligned "label  value" lines. */
export function fields(pairs: readonly (readonly [string, string])[], indent = ""): string[] {
  const width = Math.max(...pairs.map(([label]) => label.length));
  return pairs.map(([label, value]) => `${indent}${label.padEnd(width)}  ${printable(value)}`);
}

const dash = "-";

/** Every field of a record, readable. */
export function recordFields(record: OutputRecord): [string, string][] {
  const took =
    record.completedAt !== null
      ? `${formatTime(record.completedAt)} (after ${formatDuration(record.completedAt - record.createdAt)})`
      : dash;
  const size =
    record.byteSize !== null
      ? `${formatBytes(record.byteSize)} (${formatCount(record.byteSize)} bytes)`
      : dash;
  const binary = record.kind === "binary";
  const count = (value: number | null) =>
    value === null ? dash : binary ? `${dash} (binary)` : formatCount(value);
  return [
    ["id", record.id],
    ["session", record.sessionId],
    ["tool", record.toolName],
    ["tool args", clipText(record.toolArgs, 300)],
    ["tool call id", record.toolCallId ?? dash],
    ["status", record.status],
    ...(record.error !== null ? [["error", record.error] as [string, string]] : []),
    ["created", formatTime(record.createdAt)],
    ["completed", took],
    ["size", size],
    ["chars", count(record.charCount)],
    ["lines", count(record.lineCount)],
    [
      "tokens",
      record.tokenEstimate === null || binary
        ? count(record.tokenEstimate)
        : `~${formatCount(record.tokenEstimate)} (${describeTokenMethod(record.tokenMethod)})`,
    ],
    ["kind", record.kind ?? dash],
    ["media type", record.mediaType ?? dash],
    ["sha256", record.sha256 ?? dash],
    ["sanitized", record.sanitized ? "yes (lone surrogates replaced with U+FFFD)" : "no"],
    ["reads", formatCount(record.readCount)],
  ];
}

/** The list table. */
export function recordTable(records: readonly OutputRecord[]): string[] {
  const orDash = (value: number | null, render: (n: number) => string, record?: OutputRecord) =>
    value === null || record?.kind === "binary" ? dash : render(value);
  return table(records, [
    { header: "ID", value: (r) => r.id },
    { header: "SESSION", value: (r) => clipText(r.sessionId, 24) },
    { header: "TOOL", value: (r) => clipText(r.toolName, 32) },
    { header: "STATUS", value: (r) => r.status },
    { header: "SIZE", value: (r) => orDash(r.byteSize, formatBytes), align: "right" },
    { header: "LINES", value: (r) => orDash(r.lineCount, formatCount, r), align: "right" },
    {
      header: "~TOKENS",
      value: (r) => orDash(r.tokenEstimate, formatCompact, r),
      align: "right",
    },
    { header: "KIND", value: (r) => r.kind ?? dash },
    { header: "CREATED", value: (r) => formatTime(r.createdAt) },
  ]);
}

/** `# out_… chars 100-4100 bytes 100-4100 lines 3-60 of 120000 sha256 ab12…` */
export function provenanceLine(p: Provenance): string {
  return (
    `# ${p.outputId} chars ${p.charStart}-${p.charEnd} bytes ${p.byteStart}-${p.byteEnd} ` +
    `lines ${p.charStart === p.charEnd ? "none" : `${p.lineStart}-${p.lineEnd}`} of ${p.totalLines} ` +
    `sha256 ${shortSha(p.sha256)}`
  );
}

/** Quotes a shell word when it needs it (for the follow-up commands we print). */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'"'"'`)}'`;
}
