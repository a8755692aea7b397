/**
 * What get_tool_output answers a model that asks for too much or too little: spillway's texts
 * give the exact calls that work; the compatibility texts stay word for word behind
 * asyncReadyMessage: ready-menu (compatibilityTexts).
 */
import { describe, expect, it } from "vitest";
import { origin, SCOPE, tempStore } from "../../test/helpers/temp-store.js";
import { createGetToolOutputSurface } from "./get-tool-output.js";
import type { SurfaceContext } from "./surface.js";

async function setup() {
  const { store: outputs } = await tempStore();
  const log = Array.from({ length: 4000 }, (_, i) => `2026-03-14 INFO request ${i} ok`).join("\n");
  const record = await outputs.put(origin(), log);
  const surface = createGetToolOutputSurface({ synopsisLines: 5 });
  const context = (compatibilityTexts: boolean): SurfaceContext => ({
    outputs,
    scope: SCOPE,
    maxChars: 1_000_000,
    tokenizer: "o200k_base",
    outputOfToolCall: async () => undefined,
    asyncTokenThreshold: 1000,
    compatibilityTexts,
  });
  return { record, surface, context };
}

describe("get_tool_output's answers to a model", () => {
  it("a raw read over the limit answers with the exact calls that read it (the compatibility text with compatibilityTexts)", async () => {
    const { record, surface, context } = await setup();
    const ours = await surface.execute(
      "get_tool_output",
      { id: record.id, mode: "raw" },
      context(false),
    );
    expect(ours.isError).toBe(true);
    expect(ours.text).toContain("Too large to return whole");
    expect(ours.text).toContain(`get_tool_output(id="${record.id}", mode="search", query)`);
    expect(ours.text).toContain(`mode="extract", query) with what to find as the query`);
    // No placeholder value a model could send as it is.
    expect(ours.text).not.toMatch(/="(what to find|ERROR)"/);
    expect(ours.text).not.toContain("Use extract mode");
    const compatibility = await surface.execute(
      "get_tool_output",
      { id: record.id, mode: "raw" },
      context(true),
    );
    expect(compatibility.text).toMatch(
      /Response too large \(\d+ bytes\)\. Use extract mode\. Also exact:/,
    );
  });

  it("extract without a query says what to send", async () => {
    const { record, surface, context } = await setup();
    const ours = await surface.execute(
      "get_tool_output",
      { id: record.id, mode: "extract" },
      context(false),
    );
    expect(ours.isError).toBe(true);
    expect(ours.text).toContain(
      `Query required for extract mode. Say what to find, in your task's words: get_tool_output(id="${record.id}", mode="extract", query).`,
    );
    expect(ours.text).not.toMatch(/query="/);
    const compatibility = await surface.execute(
      "get_tool_output",
      { id: record.id, mode: "extract" },
      context(true),
    );
    expect(compatibility.text).toContain("Query required for extract mode.");
    expect(compatibility.text).not.toContain("Say what to find");
  });

  it("a tiny output is shown whole after a grep with no pattern or one that found nothing (not with the compatibility texts)", async () => {
    const { surface, context } = await setup();
    const { outputs } = context(false);
    const tiny = await outputs.put(origin(), "status=success artifact=sha-7f3a91c2e0d4\n");
    const noPattern = await surface.execute(
      "get_tool_output",
      { id: tiny.id, mode: "grep", query: "the artifact digest" },
      context(false),
    );
    expect(noPattern.isError).toBe(true);
    expect(noPattern.text).toContain(
      "The whole output is 41 bytes:\nstatus=success artifact=sha-7f3a91c2e0d4",
    );
    const nothing = await surface.execute(
      "get_tool_output",
      { id: tiny.id, mode: "grep", pattern: "ERROR" },
      context(false),
    );
    expect(nothing.text).toContain("no matching lines]");
    expect(nothing.text).toContain("The whole output is 41 bytes:\nstatus=success");
    // Shown whole: counted as reads.
    // Shown whole, and searched for the missed text's words: counted as reads.
    expect((await outputs.get(tiny.id, SCOPE)).readCount).toBe(4);
    const compatibility = await surface.execute(
      "get_tool_output",
      { id: tiny.id, mode: "grep", pattern: "ERROR" },
      context(true),
    );
    expect(compatibility.text).not.toContain("The whole output");
  });

  it("a larger output is not shown whole after a grep that found nothing", async () => {
    const { record, surface, context } = await setup();
    const answer = await surface.execute(
      "get_tool_output",
      { id: record.id, mode: "grep", pattern: "ERROR" },
      context(false),
    );
    expect(answer.text).not.toContain("The whole output");
  });

  it("a grep without a pattern gets the exact call, and a misplaced query where it belongs", async () => {
    const { record, surface, context } = await setup();
    const answer = await surface.execute(
      "get_tool_output",
      { id: record.id, mode: "grep", query: "the artifact digest" },
      context(false),
    );
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain(
      `mode="grep" needs pattern, the exact text to find: get_tool_output(id="${record.id}", mode="grep", pattern, context). Words to look for go in mode="search": get_tool_output(id="${record.id}", mode="search", query="the artifact digest").`,
    );
  });

  it("a grep or an anchor that finds nothing says what else to try, and which call made the output", async () => {
    const { record, surface, context } = await setup();
    const grep = await surface.execute(
      "get_tool_output",
      { id: record.id, mode: "grep", pattern: "ERROR" },
      context(false),
    );
    expect(grep.text).toContain("no matching lines]");
    expect(grep.text).toContain(
      "[nothing found (4,000 lines). Repeating this call returns the same.",
    );
    // No line holds the word either: read it in order. No broader pattern of failure words.
    expect(grep.text).toContain(
      `No line holds its words either; read it in order, get_tool_output(id="${record.id}", mode="page", cursor=0).`,
    );
    expect(grep.text).not.toContain("fail|exception");
    // Words written another way are found by a search: "Request 7" for "request 7 ok".
    const other = await surface.execute(
      "get_tool_output",
      { id: record.id, mode: "grep", pattern: "Request-3999 OK!" },
      context(false),
    );
    expect(other.text).toContain(
      `Lines with its words (a search, best first; more: get_tool_output(id="${record.id}", mode="search", query="Request-3999 OK!")):`,
    );
    expect(other.text).toMatch(/\n {2}4000\| 2026-03-14 INFO request 3999 ok\n/);
    expect(grep.text).toContain("only what test__tool returned for {}");
    const anchor = await surface.execute(
      "get_tool_output",
      { id: record.id, mode: "slice", slice: { anchor: "panic" } },
      context(false),
    );
    expect(anchor.text).toContain("not found (0 occurrences)]\n[nothing found (4,000 lines).");
    // A grep that finds something, and the compatibility texts, say nothing more.
    const found = await surface.execute(
      "get_tool_output",
      { id: record.id, mode: "grep", pattern: "request 7 ok" },
      context(false),
    );
    expect(found.text).not.toContain("nothing found");
    const compatibility = await surface.execute(
      "get_tool_output",
      { id: record.id, mode: "grep", pattern: "ERROR" },
      context(true),
    );
    expect(compatibility.text).not.toContain("nothing found");
  });

  it("retrieval headers give the output, lines and ranges, and no hash a model could take for data", async () => {
    const { record, surface, context } = await setup();
    const reads = [
      { mode: "grep", pattern: "request 3999" },
      { mode: "slice", slice: { line_start: 10, line_end: 12 } },
      { mode: "page", cursor: 0 },
    ];
    for (const read of reads) {
      const answer = await surface.execute(
        "get_tool_output",
        { id: record.id, ...read },
        context(false),
      );
      const header = answer.text.split("\n")[0]!;
      expect(header).toContain(record.id);
      expect(header).not.toMatch(/sha256|[0-9a-f]{12}/);
    }
  });
});
