/** Statistics and plain-text tables for the benchmark report. */

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile (p in 0..100) of a non-empty list. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new RangeError("percentile of an empty list");
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}

/** The largest value, or null when there is none. */
export function worst(values: readonly (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null && Number.isFinite(v));
  return known.length === 0 ? null : Math.max(...known);
}

export function ms(value: number): string {
  return value < 10 ? value.toFixed(3) : value < 1000 ? value.toFixed(1) : value.toFixed(0);
}

export function fixed(value: number | null, digits = 2): string {
  return value === null ? "n/a" : value.toFixed(digits);
}

export function verdict(value: number | null, limit: number): "PASS" | "FAIL" | "n/a" {
  if (value === null) return "n/a";
  return value <= limit ? "PASS" : "FAIL";
}

export function signedPct(value: number): string {
  return `${value >= 0 ? "+" : ""}${value.toFixed(2)}%`;
}

/** A text table: a title line, a header row, a rule, then rows; numbers align right. */
export function table(title: string, header: readonly string[], rows: readonly string[][]): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? "").length)));
  const numeric = header.map((_, c) =>
    rows.every((r) => /^[-+]?[\d.]+(%| ms| MB| MB\/s|x)?$|^n\/a$/.test(r[c] ?? "")),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, c) => (numeric[c] ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
      .join("  ")
      .trimEnd();
  const rule = widths.map((w) => "-".repeat(w)).join("  ");
  return [title, line(header), rule, ...rows.map(line)].join("\n");
}
