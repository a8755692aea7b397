import { describe, expect, it } from "vitest";
import { engineFixture } from "../../test/helpers/extraction-fixture.js";
import { isSpillwayError } from "../core/errors.js";
import { textReaderOf } from "../retrieval/common.js";
import {
  extractionAnswer,
  extractionCall,
  noRelevantData,
  type Responder,
} from "../testing/index.js";
import { planChunks, snapChunk } from "./chunker.js";
import { parseAnswer, unwrapFinalReport } from "./final-report.js";
import { renderExtraction } from "./result.js";

function log(lines: number, special: Record<number, string> = {}): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++)
    out.push(
      special[i] ??
        `2026-01-01T00:00:${String(i % 60).padStart(2, "0")}Z INFO worker-${i % 7} request ${i} ok`,
    );
  return `${out.join("\n")}\n`;
}

/**
 * A map policy that quotes every line holding the query's upper-case keyword (default
 * `fallback`); a reduce that keeps the quotes.
 */
function keywordPolicy(fallback: string, onCall?: () => void): Responder {
  return (request) => {
    onCall?.();
    const call = extractionCall(request);
    if (!call) throw new Error("not an extraction call");
    const keyword = /\b[A-Z]{3,}\b/.exec(call.query)?.[0] ?? fallback;
    if (call.kind === "map") {
      const hits = call.text.split("\n").filter((line) => line.includes(keyword));
      return hits.length === 0
        ? noRelevantData(call.nonce)
        : extractionAnswer(call.nonce, `${hits.length} lines mention ${keyword}`, hits);
    }
    const quotes = call.text
      .split("\n")
      .filter((l) => l.startsWith("> "))
      .map((l) => l.slice(2));
    return extractionAnswer(
      call.nonce,
      `All together: ${quotes.length} lines mention ${keyword}`,
      quotes,
      0.9,
    );
  };
}

describe("final-report contract", () => {
  it("unwraps with the nonce, tolerates a missing closing tag, and parses quotes and confidence", () => {
    const reply =
      'thinking…<ai-agent-abc123-FINAL format="text">\nThe id is 42.\nQUOTES:\n> request 42 failed\n> also this\nCONFIDENCE: 0.8\n';
    const content = unwrapFinalReport(reply, "abc123")!;
    expect(parseAnswer(content)).toEqual({
      relevant: true,
      text: "The id is 42.",
      quotes: ["request 42 failed", "also this"],
      confidence: 0.8,
    });
    expect(unwrapFinalReport("no wrapper here", "abc123")).toBeUndefined();
    expect(unwrapFinalReport('<ai-agent-other-FINAL format="text">x', "abc123")).toBeUndefined();
    expect(parseAnswer("NO RELEVANT DATA FOUND\nonly INFO lines")).toEqual({
      relevant: false,
      text: "only INFO lines",
      quotes: [],
    });
  });
});

describe("chunking", () => {
  it("covers every character, overlaps as configured, rebalances sizes and ends at line ends", async () => {
    const fixture = await engineFixture(keywordPolicy("x"));
    const text = log(3000);
    const record = await fixture.store(text);
    const opened = await fixture.stores.outputs.open(record.id, { sessionId: record.sessionId });
    try {
      const plan = await planChunks(textReaderOf(opened, "raw"), {
        chunkTokens: 2000,
        charsPerToken: 3,
        overlapPercent: 10,
      });
      const reader = textReaderOf(opened, "raw");
      const chunks = await Promise.all(
        plan.chunks.map((c) => snapChunk(reader, c, plan.snapChars)),
      );
      expect(chunks.length).toBeGreaterThan(10);
      expect(chunks[0]!.charStart).toBe(0);
      expect(chunks.at(-1)!.charEnd).toBe(text.length);
      for (let i = 1; i < chunks.length; i++) {
        const previous = chunks[i - 1]!;
        const chunk = chunks[i]!;
        expect(chunk.charStart).toBeLessThan(previous.charEnd); // overlap: no gap
        expect(previous.charEnd - chunk.charStart).toBeGreaterThanOrEqual(plan.overlapChars * 0.8);
        expect(text[chunk.charStart - 1]).toBe("\n"); // starts at a line start
      }
      const sizes = chunks.map((c) => c.charEnd - c.charStart);
      expect(Math.min(...sizes) / Math.max(...sizes)).toBeGreaterThan(0.8); // no tiny last chunk
    } finally {
      await opened.close();
    }
  });

  it("keeps a single-line output whole characters, surrogate pairs included", async () => {
    const fixture = await engineFixture(keywordPolicy("x"));
    const text = "😀".repeat(20_000);
    const record = await fixture.store(text);
    const opened = await fixture.stores.outputs.open(record.id, { sessionId: record.sessionId });
    try {
      const reader = textReaderOf(opened, "raw");
      const { chunks } = await planChunks(reader, {
        chunkTokens: 1000,
        charsPerToken: 2.5,
        overlapPercent: 10,
      });
      for (const chunk of chunks) {
        const range = await reader.readChars(chunk.charStart, chunk.charEnd);
        expect(range.text).toBe(text.slice(range.start.char, range.end.char));
        expect(range.start.char % 2).toBe(0);
      }
    } finally {
      await opened.close();
    }
  });
});

describe("full-chunked", () => {
  it("maps every chunk, reduces, and returns verified quotes with offsets", async () => {
    const special = {
      700: "2026-01-01T00:11:40Z ERROR worker-3 payment declined id=777",
      2900: "2026-01-01T00:48:20Z ERROR worker-1 disk full",
    };
    const text = log(3000, special);
    const fixture = await engineFixture(keywordPolicy("ERROR"));
    const record = await fixture.store(text);
    const result = await fixture.engine.run({
      output: record,
      query: "every ERROR line",
      strategy: "full-chunked",
    });
    expect(result.strategy).toBe("full-chunked");
    expect(result.chunksTotal).toBeGreaterThan(5);
    expect(result.chunksSearched).toBe(result.chunksTotal);
    expect(result.answer).toBe("All together: 2 lines mention ERROR");
    expect(result.snippets.map((s) => s.text)).toEqual([special[700], special[2900]]);
    for (const snippet of result.snippets) {
      expect(text.slice(snippet.charStart, snippet.charEnd)).toBe(snippet.text);
      expect(text.split("\n")[snippet.lineStart - 1]).toBe(snippet.text);
    }
    expect(result).toMatchObject({
      sourceHash: record.sha256,
      sourceSize: record.byteSize,
      unverified: 0,
      confidence: 0.9,
    });
    const reduces = fixture.events.filter(
      (e) => e.type === "extraction.call" && e.phase === "reduce",
    );
    expect(reduces).toHaveLength(1);
    const text2 = renderExtraction(result);
    expect(
      text2.startsWith("All together: 2 lines mention ERROR\n\nVerified quotes from out_"),
    ).toBe(true);
    expect(text2).toContain(`line 701: ${JSON.stringify(special[700])}`);
  });

  it("skips the reduce call when one chunk found something, and says what was searched when none did", async () => {
    const text = log(3000, { 1500: "2026-01-01T00:25:00Z ERROR the only one" });
    const fixture = await engineFixture(keywordPolicy("ERROR"));
    const record = await fixture.store(text);
    const result = await fixture.engine.run({
      output: record,
      query: "the ERROR",
      strategy: "full-chunked",
    });
    expect(result.answer).toBe("1 lines mention ERROR");
    expect(fixture.events.some((e) => e.type === "extraction.call" && e.phase === "reduce")).toBe(
      false,
    );
    const none = await fixture.engine.run({
      output: record,
      query: "a FATAL line",
      strategy: "full-chunked",
    });
    expect(none.found).toBe(false);
    expect(none.noMatchReason).toMatch(
      /^Searched all \d+ chunks \([\d,]+ characters\) for: a FATAL line\./,
    );
    expect(renderExtraction(none)).toMatch(/^No relevant data found\. Searched all/);
  });

  it("drops hallucinated quotes, relocates misplaced ones, and counts them", async () => {
    const text = log(400, { 10: "2026-01-01T00:00:10Z ERROR real failure" });
    const fixture = await engineFixture(
      (request) => {
        const call = extractionCall(request)!;
        return extractionAnswer(call.nonce, "two failures", [
          "2026-01-01T00:00:10Z ERROR real failure",
          "2026-01-01T00:00:11Z ERROR invented failure that is nowhere",
        ]);
      },
      { contextWindow: 100_000 },
    );
    const record = await fixture.store(text);
    const result = await fixture.engine.run({
      output: record,
      query: "failures",
      strategy: "full-chunked",
    });
    expect(result.snippets.map((s) => s.text)).toEqual(["2026-01-01T00:00:10Z ERROR real failure"]);
    expect(result.unverified).toBe(1);
    expect(result.confidence).toBe(0.5);
    expect(renderExtraction(result)).toContain(
      "(1 quote the extraction model gave was dropped: not found verbatim in the output, too short, or found in several places.)",
    );
  });

  it("runs map calls in parallel, at most `concurrency` at once", async () => {
    const text = log(3500);
    // Each call is held until four are in flight (or two seconds pass): the most calls ever in
    // flight together is the concurrency the engine used, whatever the machine's speed.
    let inFlight = 0;
    let most = 0;
    let release: () => void = () => {};
    let four = new Promise<void>((resolve) => {
      release = resolve;
    });
    const policy = keywordPolicy("ERROR");
    const fixture = await engineFixture(
      async (request, context) => {
        inFlight++;
        most = Math.max(most, inFlight);
        if (inFlight === 4) release();
        await Promise.race([four, new Promise((r) => setTimeout(r, 2_000))]);
        inFlight--;
        if (inFlight === 0)
          four = new Promise<void>((resolve) => {
            release = resolve;
          });
        return policy(request, context);
      },
      { settings: { concurrency: 4 } },
    );
    const record = await fixture.store(text);
    const result = await fixture.engine.run({
      output: record,
      query: "ERROR lines",
      strategy: "full-chunked",
    });
    expect(result.chunksTotal).toBeGreaterThanOrEqual(8);
    expect(most).toBe(4);
  });
});

describe("retries, fallback and cache", () => {
  it("retries a failing extraction call, then succeeds", async () => {
    let calls = 0;
    const fixture = await engineFixture(
      (request) => {
        calls++;
        const call = extractionCall(request)!;
        return calls <= 2
          ? { text: "no wrapper" }
          : extractionAnswer(call.nonce, "got it", ["worker-0 request 0 ok"]);
      },
      { contextWindow: 100_000 },
    );
    const record = await fixture.store(log(100));
    const result = await fixture.engine.run({
      output: record,
      query: "q",
      strategy: "full-chunked",
    });
    expect(result.answer).toBe("got it");
    expect(calls).toBe(3);
  });

  it("falls back to truncate with a warning when the model always fails, and never caches a failure", async () => {
    const fixture = await engineFixture(() => ({ error: { status: 500, message: "boom" } }), {
      contextWindow: 100_000,
    });
    const record = await fixture.store(log(2000));
    const result = await fixture.engine.run({
      output: record,
      query: "q",
      strategy: "auto",
      maxChars: 2000,
    });
    expect(result.strategy).toBe("truncate");
    expect(result.fallback?.from).toBe("full-chunked");
    expect(result.fallback?.reason).toContain("failed on chunk 1 of 1 after 3 attempts");
    const rendered = renderExtraction(result);
    expect(
      rendered.startsWith("WARNING: strategy full-chunked (chosen by auto) could not run"),
    ).toBe(true);
    expect(rendered).toContain(`the whole output is stored as ${record.id}`);
    expect(rendered.length).toBeLessThan(3000);
    const before = fixture.server.requests.length;
    await fixture.engine.run({ output: record, query: "q", strategy: "auto", maxChars: 2000 });
    expect(fixture.server.requests.length).toBe(before + 3);
  });

  it("answers a repeated question from the cache without calling the model", async () => {
    const fixture = await engineFixture(keywordPolicy("ERROR"));
    const record = await fixture.store(log(3000, { 5: "2026-01-01T00:00:05Z ERROR once" }));
    const first = await fixture.engine.run({
      output: record,
      query: "ERROR",
      strategy: "full-chunked",
    });
    const calls = fixture.server.requests.length;
    const started = performance.now();
    const second = await fixture.engine.run({
      output: record,
      query: "ERROR",
      strategy: "full-chunked",
    });
    expect(performance.now() - started).toBeLessThan(200);
    expect(fixture.server.requests.length).toBe(calls);
    expect(second).toMatchObject({ cached: true, answer: first.answer, snippets: first.snippets });
    // Chunk answers are cached too: another strategy name reuses every map call.
    await fixture.engine.run({ output: record, query: "ERROR", strategy: "auto" });
    expect(fixture.server.requests.length).toBe(calls);
  });
});

describe("routing (auto)", () => {
  it("reads one chunk whole, chunks long-line outputs, declines past maxChunks, and sends many short lines to read-grep", async () => {
    let readGrepAsked = 0;
    const fixture = await engineFixture(keywordPolicy("ERROR"), {
      settings: { maxChunks: 6 },
      services: {
        readGrep: async () => {
          readGrepAsked++;
          return {
            sessionId: "ses_child",
            status: "completed",
            report: "NO RELEVANT DATA FOUND\nall INFO",
            error: null,
          };
        },
      },
    });
    const small = await fixture.store(log(50));
    expect(
      (await fixture.engine.run({ output: small, query: "ERROR", strategy: "auto" })).strategy,
    ).toBe("full-chunked");
    const hex = (i: number) =>
      Array.from({ length: 200 }, (_, j) => ((i * 7919 + j * 104729) % 65536).toString(16)).join(
        " ",
      );
    const longLines = await fixture.store(
      `${Array.from({ length: 60 }, (_, i) => `{"row":${i},"data":"${hex(i)}"}`).join("\n")}\n`,
    );
    const chunked = await fixture.engine.run({
      output: longLines,
      query: "ERROR",
      strategy: "auto",
    });
    expect(chunked.strategy).toBe("full-chunked");
    expect(chunked.chunksTotal).toBeGreaterThan(1);
    const huge = await fixture.store(`${"y".repeat(2000)}\n`.repeat(100));
    const error = await fixture.engine
      .run({ output: huge, query: "ERROR", strategy: "auto" })
      .catch((e: unknown) => e);
    expect(isSpillwayError(error, "EXTRACTION_DECLINED")).toBe(true);
    expect((error as Error).message).toMatch(
      /would take \d+ chunks, over maxChunks=6 .*mode="grep"/,
    );
    const manyLines = await fixture.store(log(3000));
    const routed = await fixture.engine.run({
      output: manyLines,
      query: "ERROR",
      strategy: "auto",
    });
    expect(routed.strategy).toBe("read-grep");
    expect(readGrepAsked).toBe(1);
  });
});
