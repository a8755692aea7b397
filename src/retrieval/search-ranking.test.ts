import { describe, expect, it } from "vitest";
import { errorOf, openText } from "../../test/helpers/temp-store.js";
import { isSpillwayError } from "../core/errors.js";
import { searchOutput } from "./search.js";

/**
 * 150 rows of one table, 40 of them lost; the early lost rows are long (a note), the late ones
 * short, so BM25's length term ranks the late ones first.
 */
function parcels(): { text: string; lost: number[] } {
  const lines = ["shipment_id,status,note"];
  const lost: number[] = [];
  for (let i = 1; i <= 150; i++) {
    const isLost = i % 3 === 0 && i <= 120;
    const note = i < 60 ? "customer asked for a call back before the second delivery attempt" : "";
    lines.push(`SHP-${100_000 + i},${isLost ? "lost" : "delivered"},${note}`);
    if (isLost) lost.push(i + 1);
  }
  return { text: `${lines.join("\n")}\n`, lost };
}

describe("search ranking: bm25 or coverage", () => {
  it("coverage ranks lines holding the same words in the order of the output, whatever their length", async () => {
    const { text, lost } = parcels();
    const { opened } = await openText(text);
    const bm25 = await searchOutput(opened, { query: "lost", maxResults: 5 });
    expect(bm25.ranking).toBe("bm25");
    // BM25 puts the shortest equal lines first: not where the output starts.
    expect(bm25.matches[0]!.line).toBeGreaterThan(lost[0]!);
    const coverage = await searchOutput(opened, {
      query: "lost",
      maxResults: 5,
      ranking: "coverage",
    });
    expect(coverage).toMatchObject({ ranking: "coverage", latestFirst: false });
    expect(coverage.matches.map((m) => m.line)).toEqual(lost.slice(0, 5));
    const latest = await searchOutput(opened, {
      query: "lost",
      maxResults: 5,
      ranking: "coverage",
      latestFirst: true,
    });
    expect(latest.latestFirst).toBe(true);
    expect(latest.matches.map((m) => m.line)).toEqual(lost.slice(-5).reverse());
  });

  it("coverage still ranks a line holding a rarer word first, and counts a repeated word once", async () => {
    const lines = Array.from({ length: 100 }, (_, i) => `INFO worker ${i} request done`);
    lines[10] = "ERROR worker request request request request failed";
    lines[70] = "ERROR worker ledger mismatch";
    const { opened } = await openText(`${lines.join("\n")}\n`);
    const found = await searchOutput(opened, {
      query: "request ledger",
      maxResults: 3,
      ranking: "coverage",
    });
    // The rare word first; then the common word's lines in order, the repeats counting once.
    expect(found.matches.map((m) => m.line)).toEqual([71, 1, 2]);
    expect(found.matches[1]!.score).toBe(found.matches[2]!.score);
    const bm25 = await searchOutput(opened, { query: "request ledger", maxResults: 3 });
    expect(bm25.matches.map((m) => m.line)).toEqual([71, 11, 1]);
  });

  it("keeps the equal lines nearest the chosen end when the candidates are capped", async () => {
    const lines = Array.from({ length: 3_000 }, (_, i) => `status ok ${i}`);
    const { opened } = await openText(`${lines.join("\n")}\n`);
    const first = await searchOutput(opened, {
      query: "ok",
      maxResults: 2,
      maxCandidates: 100,
      ranking: "coverage",
    });
    expect(first.candidatesDropped).toBeGreaterThan(2_800);
    expect(first.matches.map((m) => m.line)).toEqual([1, 2]);
    const last = await searchOutput(opened, {
      query: "ok",
      maxResults: 2,
      maxCandidates: 100,
      ranking: "coverage",
      latestFirst: true,
    });
    expect(last.matches.map((m) => m.line)).toEqual([3_000, 2_999]);
  });

  it("refuses an unknown ranking, naming the field and what is valid", async () => {
    const { opened } = await openText("alpha\n");
    const error = await errorOf(
      searchOutput(opened, { query: "alpha", ranking: "tfidf" as never }),
    );
    expect(isSpillwayError(error, "INVALID_ARGUMENT")).toBe(true);
    expect((error as Error).message).toContain("ranking");
    expect((error as Error).message).toContain('"bm25" or "coverage"');
  });
});
