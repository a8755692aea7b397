import { describe, expect, it } from "vitest";
import { origin, SCOPE, tempStore } from "../../../test/helpers/temp-store.js";
import { createGetToolOutputSurface } from "../get-tool-output.js";
import type { SurfaceContext } from "../surface.js";
import { modeTheArgumentsAsk } from "./asked-mode.js";

describe("modeTheArgumentsAsk", () => {
  it("reads a slice, page or grep that carries search's words and none of its own aim as a search", () => {
    for (const call of [
      { id: "out_1", mode: "slice" as const, slice: {}, query: "refund", max_results: 3 },
      { id: "out_1", mode: "page" as const, query: "refund", max_results: 3 },
      { id: "out_1", mode: "grep" as const, query: "refund", max_results: 3 },
    ]) {
      const asked = modeTheArgumentsAsk(call);
      expect(asked.args).toEqual({ id: "out_1", mode: "search", query: "refund", max_results: 3 });
      expect(asked.note).toContain('[Read as mode="search": mode="');
      expect(asked.note).toContain("query is the words of a search");
    }
  });

  it("reads a slice or search that carries only grep's text as a grep", () => {
    const asked = modeTheArgumentsAsk({
      id: "out_1",
      mode: "search",
      pattern: "ERR-7",
      context: 2,
    });
    expect(asked.args).toEqual({ id: "out_1", mode: "grep", pattern: "ERR-7", context: 2 });
    expect(asked.note).toBe(
      '[Read as mode="grep": mode="search" was given no query, and pattern is the text of a grep.]\n',
    );
    expect(
      modeTheArgumentsAsk({ id: "out_1", mode: "slice", slice: {}, pattern: "x" }).args,
    ).toEqual({ id: "out_1", mode: "grep", pattern: "x" });
  });

  it("keeps the mode a call names whenever that mode has its own aim, or nothing asks for another", () => {
    const aimed = [
      { id: "out_1", mode: "slice" as const, slice: { line_start: 9 }, query: "refund" },
      { id: "out_1", mode: "slice" as const, slice: { start: 0, length: 10 }, query: "refund" },
      { id: "out_1", mode: "page" as const, cursor: 40, query: "refund" },
      { id: "out_1", mode: "grep" as const, pattern: "refund", query: "refunds" },
      { id: "out_1", mode: "search" as const, query: "refund", pattern: "x" },
      { id: "out_1", mode: "slice" as const, slice: {} },
      { id: "out_1", mode: "slice" as const, slice: {}, query: "  " },
      { id: "out_1", mode: "json" as const, query: "refund" },
      { id: "out_1", mode: "extract" as const, query: "the refund's id" },
    ];
    for (const call of aimed) expect(modeTheArgumentsAsk(call)).toEqual({ args: call, note: "" });
  });
});

describe("a read whose mode has no aim but whose arguments have one", () => {
  async function setup(compatibilityTexts = false, askedModes?: boolean) {
    const { store } = await tempStore();
    const lines = Array.from({ length: 400 }, (_, i) => `line ${i + 1} nothing to see`);
    lines[300] = "order 7 refund issued by clerk nakamura";
    const record = await store.put(origin("data__fetch", "{}"), `${lines.join("\n")}\n`);
    const surface = createGetToolOutputSurface({ synopsisLines: 5 });
    const context = {
      outputs: store,
      scope: SCOPE,
      maxChars: 20_000,
      tokenizer: "o200k_base",
      outputOfToolCall: async () => undefined,
      compatibilityTexts,
      ...(askedModes === undefined ? {} : { askedModes }),
    } as unknown as SurfaceContext;
    return { record, call: (args: object) => surface.execute("get_tool_output", args, context) };
  }

  it("answers mode=slice with a query and no position with the search, saying so", async () => {
    const { record, call } = await setup();
    const answer = await call({ id: record.id, mode: "slice", query: "refund clerk" });
    expect(answer.isError).toBe(false);
    expect(
      answer.text.startsWith('[Read as mode="search": mode="slice" was given no position'),
    ).toBe(true);
    expect(answer.text).toContain("301: order 7 refund issued by clerk nakamura");
    expect(answer.text).not.toContain("line 1 nothing to see");
    expect(answer.text).not.toContain("Not used in");
  });

  it("answers a flattened slice position as a slice, its query unused", async () => {
    const { record, call } = await setup();
    const answer = await call({ id: record.id, mode: "slice", query: "refund", line_start: 2 });
    expect(answer.text).toContain("line 2 nothing to see");
    expect(answer.text).toContain('[Not used in mode="slice": query');
  });

  it("keeps the named mode in sessions with the compatibility texts, or with the switch off", async () => {
    for (const [compatibility, asked] of [
      [true, undefined],
      [false, false],
    ] as const) {
      const { record, call } = await setup(compatibility, asked);
      const answer = await call({ id: record.id, mode: "slice", query: "refund clerk" });
      expect(answer.text).not.toContain("Read as");
      expect(answer.text).toContain("line 1 nothing to see");
    }
  });
});
