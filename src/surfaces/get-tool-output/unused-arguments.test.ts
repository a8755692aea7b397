import { describe, expect, it } from "vitest";
import { origin, SCOPE, tempStore } from "../../../test/helpers/temp-store.js";
import { createGetToolOutputSurface } from "../get-tool-output.js";
import type { SurfaceContext } from "../surface.js";
import { unusedArgumentsNote } from "./unused-arguments.js";

describe("unusedArgumentsNote", () => {
  it("names each argument of another mode with the call that uses it", () => {
    expect(
      unusedArgumentsNote({
        id: "out_1",
        mode: "grep",
        pattern: "refund",
        slice: { anchor: "ord_1", window: 500 },
        json_query: "$..code",
      }),
    ).toBe(
      '\n[Not used in mode="grep": slice, which belongs to mode="slice": get_tool_output(id="out_1", mode="slice", slice={"anchor":"ord_1","window":500}); json_query, which belongs to mode="json": get_tool_output(id="out_1", mode="json", json_query="$..code")]',
    );
  });

  it("names an argument two modes share when the call's mode is neither, with the first of them", () => {
    expect(
      unusedArgumentsNote({ id: "out_1", mode: "slice", query: "break-glass account", context: 2 }),
    ).toBe(
      '\n[Not used in mode="slice": query, which belongs to mode="search": get_tool_output(id="out_1", mode="search", query="break-glass account"); context, which belongs to mode="grep": get_tool_output(id="out_1", mode="grep", context=2)]',
    );
    expect(unusedArgumentsNote({ id: "out_1", mode: "json", cursor: 40 })).toBe(
      '\n[Not used in mode="json": cursor, which belongs to mode="grep": get_tool_output(id="out_1", mode="grep", cursor=40)]',
    );
  });

  it("says nothing when every argument is the mode's own (cursor is grep's and page's)", () => {
    expect(
      unusedArgumentsNote({ id: "out_1", mode: "grep", pattern: "x", context: 2, cursor: 9 }),
    ).toBe("");
    expect(unusedArgumentsNote({ id: "out_1", mode: "page", cursor: 9 })).toBe("");
    expect(unusedArgumentsNote({ id: "out_1", mode: "extract", query: "the owner" })).toBe("");
    expect(unusedArgumentsNote({ id: "out_1", mode: "search", query: "owner" })).toBe("");
  });
});

describe("a read with another mode's arguments", () => {
  it("runs its own mode and says what it did not use, outside sessions with the compatibility texts", async () => {
    const { store } = await tempStore();
    const record = await store.put(
      origin("data__fetch", "{}"),
      "a\nrefund one\nord_1 refund two\n",
    );
    const surface = createGetToolOutputSurface({ synopsisLines: 5 });
    const context = (compatibilityTexts: boolean) =>
      ({
        outputs: store,
        scope: SCOPE,
        maxChars: 20_000,
        tokenizer: "o200k_base",
        outputOfToolCall: async () => undefined,
        compatibilityTexts,
      }) as unknown as SurfaceContext;
    const args = { id: record.id, mode: "grep", pattern: "refund", slice: { anchor: "ord_1" } };
    const text = (await surface.execute("get_tool_output", args, context(false))).text;
    expect(text).toContain("2 matching lines");
    expect(text).toContain(
      `[Not used in mode="grep": slice, which belongs to mode="slice": get_tool_output(id="${record.id}", mode="slice", slice={"anchor":"ord_1"})]`,
    );
    expect((await surface.execute("get_tool_output", args, context(true))).text).not.toContain(
      "Not used",
    );
  });
});
