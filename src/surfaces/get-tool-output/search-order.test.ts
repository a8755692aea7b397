import { describe, expect, it } from "vitest";
import { origin, SCOPE, tempStore } from "../../../test/helpers/temp-store.js";
import { createGetToolOutputSurface } from "../get-tool-output.js";
import type { SurfaceContext } from "../surface.js";

/** A log of 300 lines, 30 of them timeouts: the early ones long, the late ones short. */
async function setup() {
  const { store: outputs } = await tempStore();
  const timeouts: number[] = [];
  const log = Array.from({ length: 300 }, (_, i) => {
    if (i % 10 !== 5) return `t=${i} INFO job ${i} finished`;
    timeouts.push(i + 1);
    return i < 150
      ? `t=${i} ERROR job ${i} timeout while waiting for the upstream cache to answer its read`
      : `t=${i} ERROR job ${i} timeout`;
  });
  const output = await outputs.put(origin("shell__run"), `${log.join("\n")}\n`);
  const surface = createGetToolOutputSurface({ synopsisLines: 5 });
  const call = (args: Record<string, unknown>, extra: Partial<SurfaceContext> = {}) =>
    surface.execute(
      "get_tool_output",
      { id: output.id, mode: "search", max_results: 3, ...args },
      {
        outputs,
        scope: SCOPE,
        maxChars: 100_000,
        tokenizer: "o200k_base",
        outputOfToolCall: async () => undefined,
        ...extra,
      },
    );
  const linesOf = (text: string) => [...text.matchAll(/^(\d+): /gm)].map((m) => Number(m[1]));
  return { output, timeouts, call, linesOf };
}

describe("the model's search: equal lines in the order of the output", () => {
  it("shows the first of many equal lines first, however long it is", async () => {
    const { timeouts, call, linesOf } = await setup();
    const answer = await call({ query: "timeout" });
    expect(answer.isError).toBe(false);
    expect(linesOf(answer.text)).toEqual(timeouts.slice(0, 3));
    expect(answer.text).not.toContain("latest first");
  });

  it("shows the latest first when the session's task asks for the last, and says so", async () => {
    const { timeouts, call, linesOf } = await setup();
    const answer = await call(
      { query: "timeout" },
      { taskText: "Which job hit the last timeout in the log?" },
    );
    expect(linesOf(answer.text)).toEqual(timeouts.slice(-3).reverse());
    expect(answer.text).toContain("showing the best 3 (equal ones latest first) · LINE: text]");
    const session = await call(
      { id: undefined, query: "timeout" },
      { taskText: "Which job hit the last timeout in the log?" },
    );
    expect(linesOf(session.text)).toEqual(timeouts.slice(-3).reverse());
    expect(session.text).toContain("(equal ones latest first)");
  });

  it("ranks by BM25 with positionOrder off: the shortest equal lines first", async () => {
    const { timeouts, call, linesOf } = await setup();
    const answer = await call({ query: "timeout" }, { positionOrder: false });
    const shown = linesOf(answer.text);
    expect(shown).toHaveLength(3);
    for (const line of shown) expect(line).toBeGreaterThan(150);
    expect(shown).not.toEqual(timeouts.slice(0, 3));
  });
});
