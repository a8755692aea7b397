import { describe, expect, it } from "vitest";
import { chunkyOutput } from "../../../test/helpers/slow-regex-runner.js";
import { SCOPE } from "../../../test/helpers/temp-store.js";
import { grepOutput } from "../../retrieval/grep.js";
import { grepText } from "./grep-records.js";
import { getToolOutputCall } from "./schema.js";

/** A grep its deadline stopped after some chunks, as the model is shown it. */
async function stoppedGrep(pattern: string, compatibilityTexts = false) {
  const { store, record, runner, opened } = await chunkyOutput(5, 400);
  const result = await grepOutput(opened, { pattern, regex: true, timeoutMs: 1_000 }, runner);
  const context = {
    outputs: store,
    scope: SCOPE,
    maxChars: 100_000,
    tokenizer: "o200k_base" as const,
    outputOfToolCall: async () => undefined,
    ...(compatibilityTexts ? { compatibilityTexts } : {}),
  };
  const continueCall = (cursor: number) =>
    getToolOutputCall({ id: record.id, mode: "grep", pattern, regex: true, cursor });
  const text = await grepText(record.id, result, context, continueCall);
  return { result, text, continueCall };
}

describe("a grep stopped by its deadline says where, and how to go on", () => {
  it("names the line it stopped at and the call that searches on from it", async () => {
    const { result, text, continueCall } = await stoppedGrep("^a{27}$");
    const line = result.stoppedAtLine!.toLocaleString("en-US");
    expect(text.split("\n")[0]).toContain(
      `${result.matches.length} matching line${result.matches.length === 1 ? "" : "s"} before line ${line}, where its deadline stopped the search`,
    );
    expect(text).toContain(
      `\n[not searched yet: line ${line} onward; go on: ${continueCall(result.nextCursor!)}]`,
    );
  });

  it("never says 'no matching lines' of lines it did not search", async () => {
    for (const compatibilityTexts of [false, true]) {
      const { result, text } = await stoppedGrep("^z+$", compatibilityTexts);
      expect(result.matches).toEqual([]);
      const line = result.stoppedAtLine!.toLocaleString("en-US");
      expect(text).toMatch(
        new RegExp(
          `no matching lines before line ${line}, where its deadline stopped the search\\]`,
        ),
      );
      expect(text).toContain("[not searched yet: line ");
    }
  });
});
