import type { SpillwayError } from "../core/errors.js";
import type { GrepLine, GrepMatch, GrepResult } from "../retrieval/grep.js";
import { countUnit } from "../retrieval/grep-long-lines.js";
import type { JsonResult } from "../retrieval/json.js";
import type { PageResult } from "../retrieval/page.js";
import type { BinaryProvenance, Provenance } from "../retrieval/provenance.js";
import type { RawResult } from "../retrieval/raw.js";
import type { SliceResult } from "../retrieval/slice.js";

/**
 * Model-facing text of retrieval results: a one-line header with the provenance (output,
 * ranges, lines), the content, and, when more exists, the exact call that continues.
 * Plain text, not JSON, so content is never double-escaped. The output's SHA-256 stays in the
 * results (API, CLI --json, trace) and out of this text: no tool takes it, and a model asked
 * for a code or an id can take a hash in a header for the answer.
 */

const n = (value: number) => value.toLocaleString("en-US");

export function rangeHeader(mode: string, p: Provenance | BinaryProvenance): string {
  if (!("charStart" in p)) {
    return `[${p.outputId} ${mode}: bytes ${n(p.byteStart)}-${n(p.byteEnd)} of ${n(p.totalBytes)} (base64)]`;
  }
  return (
    `[${p.outputId} ${mode}: chars ${n(p.charStart)}-${n(p.charEnd)} of ${n(p.totalChars)} · ` +
    `lines ${p.charStart === p.charEnd ? "none" : `${n(p.lineStart)}-${n(p.lineEnd)}`} of ${n(p.totalLines)}]`
  );
}

export function renderRaw(result: RawResult): string {
  return `${rangeHeader("raw", result.provenance)}\n${result.text}`;
}

export function renderSlice(result: SliceResult, continueCall?: string): string {
  if (!result.found) {
    return (
      `[${result.outputId} slice: anchor ${JSON.stringify(result.anchor)} ` +
      (result.occurrences === 0
        ? "not found (0 occurrences)]"
        : `occurrence ${result.matchIndex} not found: it occurs ${result.occurrences} times (match_index 0..${result.occurrences - 1})]`)
    );
  }
  const anchor =
    "anchor" in result && result.anchor
      ? ` (anchor at chars ${n(result.anchor.anchorCharStart)}-${n(result.anchor.anchorCharEnd)}, occurrence ${result.anchor.matchIndex + 1} of ${result.anchor.occurrences})`
      : "";
  const body = `${rangeHeader("slice", result.provenance)}${anchor}\n${result.text}`;
  return continueCall ? `${body}\n[more of the requested range: ${continueCall}]` : body;
}

export function renderPage(result: PageResult, continueCall: string | undefined): string {
  const next =
    result.nextCursor === null ? " · last page" : ` · next cursor ${n(result.nextCursor)}`;
  const header = rangeHeader("page", result.provenance).replace(/]$/, `${next}]`);
  return `${header}\n${result.text}${continueCall ? `\n[continue: ${continueCall}]` : ""}`;
}

function grepLine(prefix: string, separator: string, line: GrepLine): string {
  const clip = line.clipped
    ? ` [excerpt of a long line: chars ${n(line.provenance.charStart)}-${n(line.provenance.charEnd)}]`
    : "";
  return `${prefix}${line.line}${separator} ${line.text}${clip}`;
}

/** A match's lines: its context before, the matching line (`LINE:COL: text`), its context after. */
export function grepLines(match: GrepMatch): string {
  return [
    ...match.before.map((line) => grepLine("", "-", line)),
    grepLine("", `:${match.column}:`, match),
    ...match.after.map((line) => grepLine("", "-", line)),
  ].join("\n");
}

/**
 * A grep result's first line: what was searched, how many lines matched, how many are shown
 * (`records`: how many records show them, when matches are shown inside them) and how to read them.
 */
export function grepHeader(result: GrepResult, shown: number, records = 0): string {
  const total = result.totalMatches === null ? `${result.matches.length}+` : n(result.totalMatches);
  const hasContext = result.matches.some((m) => m.before.length > 0 || m.after.length > 0);
  const legend =
    records > 0
      ? "inside their records · LINE:COL: text on a matching line, LINE- text on the record's other lines"
      : `· LINE:COL: text${hasContext ? ", context LINE- text" : ""}`;
  const stopped =
    result.stoppedAtLine === null
      ? ""
      : ` before line ${n(result.stoppedAtLine)}, where its deadline stopped the search`;
  const count = result.stoppedAtLine === null ? total : n(result.matches.length);
  return (
    `[${result.outputId} grep ${JSON.stringify(result.pattern)}${result.regex ? " (regex)" : ""}${result.ignoreCase ? " (ignore case)" : ""}: ` +
    (result.matches.length === 0
      ? `no matching lines${stopped}]`
      : `${count} ${countUnit(result.matches, count === "1")}${stopped}; showing ${shown} ${legend}]`)
  );
}

/**
 * The footer of a grep its deadline stopped, once every match it found is shown: the lines
 * after it are not searched yet, and the call that goes on from them.
 */
export function grepStoppedFooter(
  result: GrepResult,
  continueCall: (cursor: number) => string,
): string {
  if (result.stoppedAtLine === null || result.nextCursor === null) return "";
  return `\n[not searched yet: line ${n(result.stoppedAtLine)} onward; go on: ${continueCall(result.nextCursor)}]`;
}

/** The note on a regex search that had to read long lines in windows ("" otherwise). */
export function grepWindowedNote(result: GrepResult): string {
  return result.windowed
    ? "\n[lines over 4 Mi characters were searched in windows: a regex match longer than 64 Ki characters there can be missed; grep a literal to be exact]"
    : "";
}

/**
 * Renders as many matches as fit `maxChars` (at least one, or RANGE_TOO_LARGE); the rest are
 * counted and reachable with the returned continuation call.
 */
export function renderGrep(
  result: GrepResult,
  maxChars: number,
  continueCall: (cursor: number) => string,
): string {
  const blocks: string[] = [];
  let used = 0;
  let shown = 0;
  for (const match of result.matches) {
    const block = grepLines(match);
    if (shown > 0 && used + block.length + 4 > maxChars) break;
    blocks.push(block);
    used += block.length + 4;
    shown++;
  }
  const hasContext = result.matches.some((m) => m.before.length > 0 || m.after.length > 0);
  const header = grepHeader(result, shown);
  const lastShown = result.matches[shown - 1];
  let footer = "";
  if (shown < result.matches.length && lastShown) {
    // The next search starts after the last line shown here.
    footer = `\n[more matching lines: ${continueCall(lastShown.provenance.charEnd)}]`;
  } else if (result.stoppedAtLine !== null) {
    footer = grepStoppedFooter(result, continueCall);
  } else if (result.nextCursor !== null) {
    footer = `\n[more matching lines: ${continueCall(result.nextCursor)}]`;
  }
  return `${header}${blocks.length > 0 ? `\n${blocks.join(hasContext ? "\n--\n" : "\n")}` : ""}${footer}${grepWindowedNote(result)}`;
}

export function renderJson(result: JsonResult, continueCall: (offset: number) => string): string {
  if (result.kind === "outline") return `[${result.outputId} json outline]\n${result.outline}`;
  const header =
    `[${result.outputId} json ${result.query}: ${result.totalExact ? "" : "at least "}${n(result.totalMatches)} matches` +
    (result.matches.length > 0
      ? `; showing ${n(result.offset + 1)}-${n(result.offset + result.matches.length)}]`
      : "]");
  const rows = result.matches.map(
    (m) => `${m.path}${m.line ? ` (line ${m.line})` : ""} = ${JSON.stringify(m.value)}`,
  );
  const footer =
    result.nextOffset !== null ? `\n[more matches: ${continueCall(result.nextOffset)}]` : "";
  return `${[header, ...rows].join("\n")}${footer}`;
}

/** A surface error as the model sees it. */
export function renderError(error: SpillwayError): string {
  return `Error ${error.code}: ${error.message}`;
}
