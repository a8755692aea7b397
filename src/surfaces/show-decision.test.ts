import { describe, expect, it } from "vitest";
import { answerBudgetChars, decideShown, type ShowPolicy } from "./show-decision.js";

const record = (over: { byteSize: number; tokens: number; kind?: "text" | "binary" }) => ({
  id: "out_x",
  toolName: "fetch_logs",
  kind: over.kind ?? ("text" as const),
  byteSize: over.byteSize,
  charCount: over.byteSize,
  tokenEstimate: over.tokens,
});

const policy: ShowPolicy = {
  enabled: true,
  toolResponseMaxBytes: 1000,
  shownAs: "handle",
  continuationChars: 400,
};
const budget = (remainingTokens: number) => ({
  remainingTokens,
  countTokens: async (text: string) => text.length,
  placeholder: async () => "PLACEHOLDER",
});

describe("decideShown", () => {
  it("inline under the cap and within the budget, charged its own tokens", async () => {
    expect(await decideShown(record({ byteSize: 900, tokens: 200 }), policy, budget(500))).toEqual({
      shown: "inline",
      tokens: 200,
      retrievable: false,
      exhausted: false,
    });
  });

  it("the handle over the byte cap, or over the budget, charged the placeholder only", async () => {
    const overCap = await decideShown(record({ byteSize: 1001, tokens: 10 }), policy, budget(500));
    expect(overCap).toEqual({ shown: "handle", tokens: 11, retrievable: true, exhausted: false });
    const overBudget = await decideShown(
      record({ byteSize: 900, tokens: 501 }),
      policy,
      budget(500),
    );
    expect(overBudget.shown).toBe("handle");
  });

  it("binary is never inline; a placeholder that does not fit exhausts the budget", async () => {
    const binary = await decideShown(
      record({ byteSize: 10, tokens: 1, kind: "binary" }),
      policy,
      budget(5),
    );
    expect(binary).toEqual({ shown: "handle", tokens: 11, retrievable: true, exhausted: true });
  });

  it("the size trigger announces a large output ready even when it would fit", async () => {
    const decision = await decideShown(
      record({ byteSize: 900, tokens: 300 }),
      { ...policy, readyOverTokens: 250 },
      budget(10_000),
    );
    expect(decision.shown).toBe("ready");
    expect(decision.retrievable).toBe(true);
  });

  it("continuation surfaces compare characters; legacy truncation caps what is charged", async () => {
    const cont = { ...policy, shownAs: "continuation" as const };
    expect((await decideShown(record({ byteSize: 500, tokens: 5 }), cont, budget(99))).shown).toBe(
      "continuation",
    );
    const legacy = await decideShown(
      record({ byteSize: 3000, tokens: 900 }),
      { ...policy, enabled: false },
      budget(0),
    );
    expect(legacy).toEqual({
      shown: "truncated",
      tokens: 334,
      retrievable: false,
      exhausted: false,
    });
  });

  it("answerBudgetChars: three characters a token, within 1,000 and four times the cap", () => {
    expect(answerBudgetChars(90_000, 12_288)).toBe(49_152);
    expect(answerBudgetChars(2_000, 12_288)).toBe(6_000);
    expect(answerBudgetChars(-50, 12_288)).toBe(1_000);
  });
});
