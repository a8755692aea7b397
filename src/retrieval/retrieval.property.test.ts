import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { STORE_ENGINES } from "../../test/helpers/store-engines.js";
import { origin, SCOPE } from "../../test/helpers/temp-store.js";
import type { OutputStore } from "../store/output-store.js";
import { DEFAULT_MAX_LINE_CHARS, grepOutput } from "./grep.js";
import { readPage } from "./page.js";
import { readSlice } from "./slice.js";

/** Fragments that stress offsets: CRLF, CJK (3-byte UTF-8), emoji (surrogate pairs), ASCII. */
const fragment = fc.oneof(
  fc.constantFrom(
    "\n",
    "\r\n",
    "a",
    "ERROR",
    "😀",
    "👩‍💻",
    "日本語",
    "é",
    "\t",
    " ",
    "needle",
    "x".repeat(50),
  ),
  fc.string({ unit: "grapheme", maxLength: 8 }),
  fc.string({ unit: "binary", maxLength: 4 }),
);

/**
 * Texts large enough to cross index checkpoints (every 64K characters and every 1024 lines):
 * a random body repeated, with random fragments in between.
 */
const bigText = fc
  .tuple(
    fc.array(fragment, { minLength: 1, maxLength: 40 }),
    fc.integer({ min: 1, max: 9000 }),
    fc.array(fragment, { maxLength: 20 }),
  )
  .map(([body, times, tail]) => {
    const unit = body.join("");
    return (
      unit.repeat(Math.max(1, Math.floor(times / Math.max(1, unit.length / 20)))) + tail.join("")
    );
  });

const smallText = fc.array(fragment, { maxLength: 60 }).map((parts) => parts.join(""));

const anyText = fc.oneof({ arbitrary: smallText, weight: 2 }, { arbitrary: bigText, weight: 1 });

async function stored(store: OutputStore, text: string) {
  const record = await store.put(origin(), text);
  return { record, opened: await store.open(record.id, SCOPE), canonical: text.toWellFormed() };
}

const sha = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

// Run unchanged on every store engine: SQLite, and a real PostgreSQL server.
describe.each(STORE_ENGINES)("retrieval properties on $name", (engine) => {
  it("any sequence of pages reconstructs the output exactly", async () => {
    const store = await engine.open();
    await fc.assert(
      fc.asyncProperty(
        anyText,
        fc.array(fc.integer({ min: 1, max: 70_000 }), { minLength: 1, maxLength: 8 }),
        async (text, budgets) => {
          const { opened, canonical, record } = await stored(store, text);
          try {
            let cursor: number | null = 0;
            let rebuilt = "";
            let i = 0;
            while (cursor !== null) {
              const page = await readPage(opened, {
                cursor,
                maxChars: budgets[i++ % budgets.length]!,
              });
              if (page.encoding !== "utf-8") throw new Error("text expected");
              expect(page.provenance.charStart).toBe(cursor);
              if (canonical.length > 0) expect(page.text.length).toBeGreaterThan(0);
              rebuilt += page.text;
              cursor = page.nextCursor;
            }
            expect(rebuilt.length).toBe(canonical.length);
            expect(sha(rebuilt)).toBe(record.sha256);
          } finally {
            await opened.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it("any character slice equals the same range of the original", async () => {
    const store = await engine.open();
    await fc.assert(
      fc.asyncProperty(
        anyText,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 0, max: 5000 }),
        async (text, where, length) => {
          const { opened, canonical } = await stored(store, text);
          try {
            const start = Math.floor(where * canonical.length);
            const slice = await readSlice(opened, { start, length });
            if (!slice.found || slice.encoding !== "utf-8") throw new Error("text slice expected");
            const { provenance } = slice;
            const end = Math.min(canonical.length, start + length);
            // Boundaries widen by one unit only to keep a surrogate pair whole.
            expect(
              provenance.charStart === start ||
                (provenance.charStart === start - 1 && isLow(canonical.charCodeAt(start))),
            ).toBe(true);
            expect(
              provenance.charEnd === end ||
                (provenance.charEnd === end + 1 && isLow(canonical.charCodeAt(end))),
            ).toBe(true);
            expect(slice.text).toBe(canonical.slice(provenance.charStart, provenance.charEnd));
            expect(provenance.byteStart).toBe(
              Buffer.byteLength(canonical.slice(0, provenance.charStart)),
            );
            expect(provenance.byteEnd).toBe(
              Buffer.byteLength(canonical.slice(0, provenance.charEnd)),
            );
            const linesBefore = canonical.slice(0, provenance.charStart).split("\n").length;
            const totalLines = opened.record.lineCount ?? 0;
            expect(provenance.lineStart).toBe(
              slice.text.length > 0 ? linesBefore : Math.min(linesBefore, totalLines),
            );
            if (slice.text.length > 0) {
              expect(provenance.lineEnd).toBe(
                canonical.slice(0, provenance.charEnd - 1).split("\n").length,
              );
            }
          } finally {
            await opened.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("line slices equal the reference split, terminators included", async () => {
    const store = await engine.open();
    await fc.assert(
      fc.asyncProperty(
        anyText,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 0, max: 40 }),
        async (text, where, span) => {
          const { opened, canonical, record } = await stored(store, text);
          try {
            const lines = canonical.match(/[^\n]*\n|[^\n]+$/g) ?? [];
            expect(record.lineCount).toBe(lines.length);
            if (lines.length === 0) return;
            const first = 1 + Math.floor(where * (lines.length - 1));
            const last = Math.min(lines.length, first + span);
            const slice = await readSlice(opened, { lineStart: first, lineEnd: first + span });
            if (!slice.found || slice.encoding !== "utf-8") throw new Error("text slice expected");
            expect(slice.text).toBe(lines.slice(first - 1, last).join(""));
            expect(slice.provenance.lineStart).toBe(first);
            expect(slice.provenance.lineEnd).toBe(last);
          } finally {
            await opened.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it("grep finds exactly the lines a reference scan finds", async () => {
    const store = await engine.open();
    const patterns = fc.constantFrom(
      { pattern: "ERROR", regex: false, ignoreCase: false },
      { pattern: "error", regex: false, ignoreCase: true },
      { pattern: "😀", regex: false, ignoreCase: false },
      { pattern: "日本", regex: false, ignoreCase: false },
      { pattern: "a\\w*e", regex: true, ignoreCase: false },
      { pattern: "^x+$", regex: true, ignoreCase: false },
      { pattern: "needle|ERR", regex: true, ignoreCase: true },
    );
    await fc.assert(
      fc.asyncProperty(anyText, patterns, async (text, query) => {
        const { opened, canonical } = await stored(store, text);
        try {
          const lines = canonical.split("\n");
          const re = query.regex
            ? new RegExp(query.pattern, query.ignoreCase ? "i" : "")
            : new RegExp(
                query.pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
                query.ignoreCase ? "i" : "",
              );
          // Each matching line once; a line too long to show whole, once per match on it.
          const expected: number[] = [];
          lines.forEach((line, i) => {
            if (i === lines.length - 1 && line === "") return;
            if (!re.test(line)) return;
            if (line.length <= DEFAULT_MAX_LINE_CHARS) {
              expected.push(i + 1);
              return;
            }
            const all = new RegExp(re.source, `${re.flags}g`);
            for (let m = all.exec(line); m !== null; m = all.exec(line)) {
              expected.push(i + 1);
              if (m[0].length === 0) all.lastIndex++;
            }
          });
          const found: number[] = [];
          let cursor: number | null = 0;
          let total: number | null = null;
          while (cursor !== null) {
            const result = await grepOutput(opened, { ...query, cursor, maxMatches: 1000 });
            if (cursor === 0) total = result.totalMatches;
            for (const match of result.matches) {
              found.push(match.line);
              const line = lines[match.line - 1]!;
              expect(canonical.slice(match.matchCharStart, match.matchCharEnd)).toBe(match.match);
              expect(match.matchByteStart).toBe(
                Buffer.byteLength(canonical.slice(0, match.matchCharStart)),
              );
              expect(line).toContain(match.match);
            }
            cursor = result.nextCursor;
          }
          expect(found).toEqual(expected);
          if (total !== null && !query.regex) expect(total).toBe(expected.length);
        } finally {
          await opened.close();
        }
      }),
      { numRuns: 50 },
    );
  });
});
