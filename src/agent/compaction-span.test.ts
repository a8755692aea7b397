import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chooseSpan, type SpanEntry, validCuts } from "./compaction-span.js";

/** A history of turns: a user message, or an assistant message whose calls are answered after it. */
const turn = fc.oneof(
  fc.record({ kind: fc.constant("user" as const), tokens: fc.integer({ min: 1, max: 500 }) }),
  fc.record({
    kind: fc.constant("assistant" as const),
    tokens: fc.integer({ min: 1, max: 200 }),
    results: fc.array(fc.integer({ min: 1, max: 3000 }), { maxLength: 4 }),
  }),
);

type Turn =
  | { kind: "user"; tokens: number }
  | { kind: "assistant"; tokens: number; results: number[] };

function entriesOf(turns: readonly Turn[]): SpanEntry[] {
  const entries: SpanEntry[] = [];
  let call = 0;
  for (const [n, t] of turns.entries()) {
    if (t.kind === "user") {
      entries.push({ role: "user", tokens: t.tokens });
      continue;
    }
    const ids = t.results.map(() => `call_${call++}`);
    entries.push({ role: "assistant", tokens: t.tokens, callIds: ids });
    // Results of one turn arrive in any order (parallel tools): every other turn, reversed.
    const order = n % 2 === 0 ? ids : [...ids].reverse();
    for (const [i, id] of order.entries())
      entries.push({ role: "tool", tokens: t.results[i]!, resultOf: id });
  }
  return entries;
}

/** Every call in entries[0, count) is answered inside, and entries[count] is not a result. */
function isWholeTurns(entries: readonly SpanEntry[], count: number): boolean {
  const inside = entries.slice(0, count);
  const calls = new Set(inside.flatMap((e) => e.callIds ?? []));
  const answered = new Set(inside.flatMap((e) => (e.resultOf ? [e.resultOf] : [])));
  const next = entries[count];
  return [...calls].every((id) => answered.has(id)) && (next === undefined || next.role !== "tool");
}

describe("compaction span", () => {
  it("never separates a call from its result, and always keeps the last turn", () => {
    fc.assert(
      fc.property(
        fc.array(turn, { maxLength: 30 }),
        fc.integer({ min: 0, max: 20_000 }),
        fc.integer({ min: 0, max: 20_000 }),
        (turns, removeAtLeast, maxTokens) => {
          const entries = entriesOf(turns);
          for (const cut of validCuts(entries)) expect(isWholeTurns(entries, cut.index)).toBe(true);
          const span = chooseSpan(entries, { removeAtLeast, maxTokens });
          expect(isWholeTurns(entries, span.count)).toBe(true);
          const lastTurn = entries.findLastIndex((e) => e.role !== "tool");
          expect(span.count).toBeLessThanOrEqual(Math.max(0, lastTurn));
          expect(span.readTokens).toBeLessThanOrEqual(Math.max(maxTokens, 0));
          expect(span.tokens).toBe(entries.slice(0, span.count).reduce((s, e) => s + e.tokens, 0));
        },
      ),
    );
  });

  it("takes the shortest whole-turn span that removes enough, else the longest the summarizer can read", () => {
    const entries: SpanEntry[] = [
      { role: "user", tokens: 100 },
      { role: "assistant", tokens: 10, callIds: ["a", "b"] },
      { role: "tool", tokens: 500, resultOf: "b" },
      { role: "tool", tokens: 400, resultOf: "a" },
      { role: "assistant", tokens: 10, callIds: ["c"] },
      { role: "tool", tokens: 1000, resultOf: "c" },
      { role: "assistant", tokens: 10 },
    ];
    expect(validCuts(entries).map((c) => c.index)).toEqual([1, 4, 6]);
    expect(chooseSpan(entries, { removeAtLeast: 200, maxTokens: 10_000 })).toEqual({
      count: 4,
      tokens: 1010,
      readTokens: 1010,
    });
    expect(chooseSpan(entries, { removeAtLeast: 5000, maxTokens: 1500 })).toEqual({
      count: 4,
      tokens: 1010,
      readTokens: 1010,
    });
    expect(chooseSpan(entries, { removeAtLeast: 5000, maxTokens: 50 })).toEqual({
      count: 0,
      tokens: 0,
      readTokens: 0,
    });
    // What the summarizer reads may be smaller than what the projection sends (handle forms).
    const light = entries.map((e) => ({ ...e, readTokens: 5 }));
    expect(chooseSpan(light, { removeAtLeast: 5000, maxTokens: 100 }).count).toBe(6);
    // A single turn is never summarized: the most recent one stays.
    expect(chooseSpan(entries.slice(4), { removeAtLeast: 1, maxTokens: 10_000 }).count).toBe(2);
    expect(chooseSpan(entries.slice(4, 6), { removeAtLeast: 1, maxTokens: 10_000 }).count).toBe(0);
  });
});
