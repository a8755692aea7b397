/**
 * `outputs grep`: matching lines as `LINE:COL: text`, context lines as `LINE- text` and `--`
 * between separate groups (like grep -n); a footer on stderr says how many matched and the
 * cursor that continues the search.
 */
import type { GrepLine, GrepResult } from "../retrieval/grep.js";
import { countUnit } from "../retrieval/grep-long-lines.js";
import { readOutput } from "../retrieval/read-output.js";
import { fieldsLine } from "../retrieval/record-matches.js";
import type { MatchRecord } from "../retrieval/record-types.js";
import { type CliContext, OWNER_SCOPE, withStore } from "./context.js";
import { EXIT_OK } from "./errors.js";
import { formatCount, shellQuote } from "./format.js";

export interface GrepOptions {
  readonly regex?: boolean;
  readonly ignoreCase?: boolean;
  readonly context?: number;
  readonly max?: number;
  readonly cursor?: number;
  readonly timeoutMs?: number;
  /** Show each match inside its record (JSON object, YAML item, CSV row, log entry). */
  readonly record?: boolean;
}

interface ShownLine {
  readonly line: number;
  readonly text: string;
  /** The 1-based column of the match, on a matching line. */
  readonly column?: number;
}

function shown(line: GrepLine, column?: number): ShownLine {
  const text = line.clipped ? `…${line.text}…` : line.text;
  return { line: line.line, text, ...(column !== undefined ? { column } : {}) };
}

/**
 * Display lines for a grep result; context shared by nearby matches is shown once, and each
 * match of a line too long to show whole is a line of its own.
 */
export function renderGrep(result: GrepResult): string[] {
  const context = new Map<number, ShownLine>();
  for (const match of result.matches) {
    for (const line of [...match.before, ...match.after]) {
      if (!context.has(line.line)) context.set(line.line, shown(line));
    }
  }
  const matching = new Set(result.matches.map((m) => m.line));
  const entries = [
    ...[...context.values()].filter((entry) => !matching.has(entry.line)),
    ...result.matches.map((m) => shown(m, m.column)),
  ].sort((a, b) => a.line - b.line || (a.column ?? 0) - (b.column ?? 0));
  const hasContext = result.matches.some((m) => m.before.length > 0 || m.after.length > 0);
  const lines: string[] = [];
  let previous: number | undefined;
  for (const entry of entries) {
    if (hasContext && previous !== undefined && entry.line > previous + 1) lines.push("--");
    lines.push(
      entry.column !== undefined
        ? `${entry.line}:${entry.column}: ${entry.text}`
        : `${entry.line}- ${entry.text}`,
    );
    previous = entry.line;
  }
  return lines;
}

/**
 * Display lines for a grep result with records: each record once, opened by a `#` line with
 * its kind and lines (and the commands that read what it left out), matching lines as
 * `LINE:COL: text`, the record's other lines as `LINE- text`, `--` between records.
 */
export function renderRecords(result: GrepResult, id: string, home: string | undefined): string[] {
  const records = result.records ?? [];
  const lines: string[] = [];
  records.forEach((record, index) => {
    const matches = result.matches.filter((m) => m.recordIndex === index);
    if (index > 0) lines.push("--");
    lines.push(`# record: ${record.kind}, lines ${record.lineStart}-${record.lineEnd}`);
    for (const part of record.clipped?.omitted ?? []) {
      const flags =
        "lineStart" in part.slice
          ? `--line-start ${part.slice.lineStart} --line-end ${part.slice.lineEnd}`
          : `--start ${part.slice.start} --length ${part.slice.length}`;
      const where = home !== undefined ? ` --home ${shellQuote(home)}` : "";
      lines.push(
        `# left out: lines ${part.lineStart}-${part.lineEnd}: spillway outputs slice ${id}${where} ${flags}`,
      );
    }
    lines.push(...recordLines(record, new Map(matches.map((m) => [m.line, m.column]))));
  });
  return lines;
}

function recordLines(record: MatchRecord, columns: Map<number, number>): string[] {
  if (record.fields) return [`${record.lineStart}: ${fieldsLine(record.fields)}`];
  return record.text.split("\n").map((text, i) => {
    const line = record.provenance.lineStart + i;
    const column = columns.get(line);
    return column === undefined ? `${line}- ${text}` : `${line}:${column}: ${text}`;
  });
}

/** The stderr footer: count, whether more exist, and the command that continues. */
function footer(result: GrepResult, id: string, options: GrepOptions, home: string | undefined) {
  const count = result.matches.length;
  const total =
    result.totalMatches !== null && result.moreMatches
      ? ` of ${formatCount(result.totalMatches)} from this cursor`
      : "";
  const head = `# ${formatCount(count)} ${countUnit(result.matches, count === 1)}${total} in ${result.outputId}`;
  const windowed = result.windowed
    ? [
        "# lines over 4 Mi characters were searched in windows: a regex match longer than 64 Ki characters there can be missed",
      ]
    : [];
  const stopped = result.stoppedAtLine !== null;
  if ((!result.moreMatches && !stopped) || result.nextCursor === null)
    return [`${head}; no more matches`, ...windowed];
  const flags = [
    ...(home !== undefined ? ["--home", shellQuote(home)] : []),
    ...(options.regex ? ["--regex"] : []),
    ...(options.ignoreCase ? ["-i"] : []),
    ...(options.context ? ["-C", String(options.context)] : []),
    ...(options.max !== undefined ? ["--max", String(options.max)] : []),
    ...(options.record ? ["--record"] : []),
    "--cursor",
    String(result.nextCursor),
  ];
  return [
    stopped
      ? `${head} before line ${formatCount(result.stoppedAtLine!)}, where the deadline stopped the search; lines from there are not searched yet; next cursor ${result.nextCursor}`
      : `${head}; more matches exist; next cursor ${result.nextCursor}`,
    `# continue: spillway outputs grep ${id} ${shellQuote(result.pattern)} ${flags.join(" ")}`,
    ...windowed,
  ];
}

export async function grepCommand(
  context: CliContext,
  id: string,
  pattern: string,
  options: GrepOptions,
): Promise<number> {
  const result = await withStore(context, (store) =>
    readOutput(store, id, OWNER_SCOPE, {
      mode: "grep",
      pattern,
      ...(options.regex ? { regex: true } : {}),
      ...(options.ignoreCase ? { ignoreCase: true } : {}),
      ...(options.context !== undefined ? { context: options.context } : {}),
      ...(options.max !== undefined ? { maxMatches: options.max } : {}),
      ...(options.cursor !== undefined ? { cursor: options.cursor } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.record ? { record: true } : {}),
    }),
  );
  if (context.json) {
    await context.out.json(result);
    return EXIT_OK;
  }
  const home = context.explicitHome ? context.home : undefined;
  await context.out.lines(result.records ? renderRecords(result, id, home) : renderGrep(result));
  for (const line of footer(result, id, options, home)) {
    context.out.note(line);
  }
  return EXIT_OK;
}
