/**
 * Grep on a line too long to show whole (grep-long-lines.ts): every match on it is an entry of
 * its own, with its column, excerpt and record; a line short enough to show whole stays one entry.
 */
import { describe, expect, it } from "vitest";
import { openText } from "../../test/helpers/temp-store.js";
import { grepOutput } from "./grep.js";
import { matchesApart } from "./grep-long-lines.js";
import { LONG_LINE_CHARS } from "./regex-matcher.js";

/** A minified JSON export of 60 orders on one line; every third is refunded. */
const orders = Array.from({ length: 60 }, (_, i) => ({
  id: 1000 + i,
  status: ["paid", "refunded", "shipped"][i % 3],
  customer: { name: `Name ${i}`, email: `n${i}@example.com` },
}));
const minified = `${JSON.stringify({ orders })}\n`;
const refundedIds = orders.filter((o) => o.status === "refunded").map((o) => o.id);

const opened = async (text: string) => (await openText(text)).opened;

/** Where each occurrence of `needle` starts in `text`, 1-based like a column. */
function columnsOf(text: string, needle: string): number[] {
  const columns: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length))
    columns.push(at + 1);
  return columns;
}

describe("grep on a line too long to show whole", () => {
  it("gives every match on it apart, each with its column and an excerpt holding it", async () => {
    const output = await opened(minified);
    const result = await grepOutput(output, { pattern: '"refunded"' });
    expect(result.matches).toHaveLength(20);
    expect(result.matches.every((m) => m.line === 1 && m.clipped)).toBe(true);
    expect(result.matches.map((m) => m.column)).toEqual(columnsOf(minified, '"refunded"'));
    for (const match of result.matches) {
      expect(match.text).toContain('"refunded"');
      expect(minified.slice(match.matchCharStart, match.matchCharEnd)).toBe('"refunded"');
    }
    expect(result).toMatchObject({ totalMatches: 20, moreMatches: false, nextCursor: null });
    expect(matchesApart(result.matches)).toBe(true);
  });

  it("puts each match inside its own record: the object it is in", async () => {
    const output = await opened(minified);
    const result = await grepOutput(output, { pattern: '"refunded"', record: true });
    const ids = result.matches.map(
      (m) => JSON.parse(result.records![m.recordIndex!]!.text) as { id: number },
    );
    expect(ids.map((o) => o.id)).toEqual(refundedIds);
  });

  it("finds the same matches by regex and ignoring case, and an empty match moves on", async () => {
    const output = await opened(minified);
    const columns = columnsOf(minified, '"refunded"');
    const byRegex = await grepOutput(output, { pattern: '"ref\\w+"', regex: true });
    const byCase = await grepOutput(output, { pattern: '"REFUNDED"', ignoreCase: true });
    expect(byRegex.matches.map((m) => m.column)).toEqual(columns);
    expect(byCase.matches.map((m) => m.column)).toEqual(columns);
    const empty = await grepOutput(output, { pattern: "x*", regex: true, maxMatches: 5 });
    expect(empty.matches.map((m) => m.column)).toEqual([1, 2, 3, 4, 5]);
  });

  it("stops inside the line at maxMatches and goes on from there, none twice or missed", async () => {
    const output = await opened(`short refunded line\n${minified}"refunded" after\n`);
    const columns: string[] = [];
    let cursor: number | null = 0;
    let calls = 0;
    while (cursor !== null) {
      const page = await grepOutput(output, { pattern: '"refunded"', maxMatches: 6, cursor });
      if (calls === 0) {
        expect(page).toMatchObject({ moreMatches: true, totalMatches: null });
        expect(page.nextCursor).toBe(page.matches.at(-1)!.matchCharEnd);
      }
      columns.push(...page.matches.map((m) => `${m.line}:${m.column}`));
      cursor = page.nextCursor;
      calls++;
    }
    expect(calls).toBe(4);
    expect(columns).toEqual([...columnsOf(minified, '"refunded"').map((c) => `2:${c}`), "3:1"]);
  });

  it("stopping right after a long line's first match, goes on with the rest of that line", async () => {
    const output = await opened(`a refunded order\n${minified}`);
    const first = await grepOutput(output, { pattern: "refunded", maxMatches: 2 });
    expect(first.matches.map((m) => m.line)).toEqual([1, 2]);
    expect(first).toMatchObject({ moreMatches: true, totalMatches: null });
    expect(first.nextCursor).toBe(first.matches[1]!.matchCharEnd);
    const rest = await grepOutput(output, { pattern: "refunded", cursor: first.nextCursor! });
    expect([...first.matches, ...rest.matches].filter((m) => m.line === 2)).toHaveLength(20);
    expect(rest).toMatchObject({ moreMatches: false, nextCursor: null });
  });

  it("finds a literal's every match on a line of any length; a regex past 4 Mi characters keeps the first", async () => {
    const record = `{"status":"paid","note":"${"x".repeat(200)}"},`;
    const huge = `[${record.repeat(Math.ceil((LONG_LINE_CHARS + 1000) / record.length))}{}]\n`;
    expect(huge.length).toBeGreaterThan(LONG_LINE_CHARS);
    const output = await opened(huge);
    const literal = await grepOutput(output, { pattern: '"paid"', maxMatches: 30 });
    expect(literal.matches.map((m) => m.column)).toEqual(columnsOf(huge, '"paid"').slice(0, 30));
    expect(literal.moreMatches).toBe(true);
    const byRegex = await grepOutput(output, { pattern: '"pa\\w+"', regex: true, maxMatches: 30 });
    expect(byRegex.matches).toHaveLength(1);
    expect(byRegex.windowed).toBe(true);
  });

  it("keeps a line short enough to show whole as one entry, however many matches it holds", async () => {
    const output = await opened("refunded, refunded and refunded\nnone here\nrefunded\n");
    const result = await grepOutput(output, { pattern: "refunded" });
    expect(result.matches.map((m) => [m.line, m.column])).toEqual([
      [1, 1],
      [3, 1],
    ]);
    expect(result.totalMatches).toBe(2);
    expect(matchesApart(result.matches)).toBe(false);
  });
});
