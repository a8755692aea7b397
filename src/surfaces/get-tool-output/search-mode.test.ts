import { describe, expect, it } from "vitest";
import { origin, SCOPE, tempStore } from "../../../test/helpers/temp-store.js";
import type { ReadScope } from "../../store/output-store.js";
import { createGetToolOutputSurface } from "../get-tool-output.js";
import type { SurfaceContext } from "../surface.js";

async function setup(maxChars = 100_000) {
  const { store: outputs } = await tempStore();
  const log = Array.from({ length: 2000 }, (_, i) => `2026-03-14 INFO request ${i} ok`);
  log[1234] = "2026-03-14 WARN kernel BOOT-MARKER-ALPHA=7f3a9c set";
  const first = await outputs.put(origin("shell__run"), `${log.join("\n")}\n`);
  const second = await outputs.put(
    origin("fs__read_file"),
    "notes\nサーバーの起動マーカーはBOOT-7です。\n",
  );
  const surface = createGetToolOutputSurface({ synopsisLines: 5 });
  const context = (scope: ReadScope = SCOPE): SurfaceContext => ({
    outputs,
    scope,
    maxChars,
    tokenizer: "o200k_base",
    outputOfToolCall: async () => undefined,
  });
  const call = (args: Record<string, unknown>, scope?: ReadScope) =>
    surface.execute("get_tool_output", args, context(scope));
  return { first, second, call };
}

describe('get_tool_output(mode="search")', () => {
  it("answers the best lines of one output as LINE: text, with the words and their counts", async () => {
    const { first, call } = await setup();
    const answer = await call({ id: first.id, mode: "search", query: "boot marker" });
    expect(answer).toMatchObject({ isError: false, outputId: first.id });
    expect(answer.text).toBe(
      `[${first.id} search "boot marker": 1 matching line (lines holding each word: boot: 1, marker: 1); showing the best 1 · LINE: text]\n` +
        "1235: 2026-03-14 WARN kernel BOOT-MARKER-ALPHA=7f3a9c set",
    );
  });

  it("without an id searches every output of the session, naming the output of each line", async () => {
    const { first, second, call } = await setup();
    const answer = await call({ mode: "search", query: "起動マーカー boot" });
    expect(answer.isError).toBe(false);
    expect(answer.text).toContain("[search of this session's 2 outputs for");
    expect(answer.text).toContain(
      `[${second.id} fs__read_file]\n2: サーバーの起動マーカーはBOOT-7です。`,
    );
    expect(answer.text).toContain(`[${first.id} shell__run]\n1235: `);
    // Best first across outputs: the line with every word comes before the one with "boot" alone.
    expect(answer.text.indexOf(second.id)).toBeLessThan(answer.text.indexOf(first.id));
  });

  it("says what is missing: a query, or an id for the other modes", async () => {
    const { first, call } = await setup();
    const noQuery = await call({ id: first.id, mode: "search", pattern: "boot marker" });
    expect(noQuery.isError).toBe(true);
    expect(noQuery.text).toContain('mode="search" needs query');
    expect(noQuery.text).toContain(
      `get_tool_output(id="${first.id}", mode="search", query="boot marker")`,
    );
    const noId = await call({ mode: "grep", pattern: "boot" });
    expect(noId.isError).toBe(true);
    expect(noId.text).toContain('mode="grep" needs id');
    const stop = await call({ mode: "search", query: "what is the" });
    expect(stop.isError).toBe(true);
    expect(stop.text).toContain("INVALID_ARGUMENT");
    expect(stop.text).toContain("query");
    const admin = await call({ mode: "search", query: "boot" }, { allSessions: true });
    expect(admin.isError).toBe(true);
    expect(admin.text).toContain("give the id of an output");
  });

  it("fits the budget, says how many lines did not fit, and notes left-out words", async () => {
    const { first, call } = await setup(120);
    const answer = await call({
      id: first.id,
      mode: "search",
      query: "what is request 7 and request 8",
      max_results: 5,
    });
    expect(answer.text).toContain("[common words left out: what, is, and]");
    expect(answer.text).toMatch(/\[\d+ lines? more ranked below did not fit this answer/);
    const grep = await call({ id: first.id, mode: "grep", pattern: "BOOT", max_results: 3 });
    expect(grep.text).toContain(
      '[Not used in mode="grep": max_results, which belongs to mode="search"',
    );
  });
});
