/**
 * The local model's reply takes what the context leaves after the prompt (SW-21): a prompt that
 * the model's tokenizer counts higher than the runtime's margin allowed costs the reply's spare
 * room, not the call.
 */
import { describe, expect, it } from "vitest";
import { MIN_REPLY_TOKENS, replyBudget, replyFinish } from "./local-language-model.js";

describe("replyBudget", () => {
  it("keeps the limit asked for when prompt and reply fit", () => {
    expect(replyBudget(6_000, 1_024, 8_192)).toBe(1_024);
    expect(replyBudget(7_168, 1_024, 8_192)).toBe(1_024);
  });

  it("gives the reply the room left when the prompt runs into the reserve", () => {
    expect(replyBudget(7_602, 1_024, 8_192)).toBe(590);
    expect(replyBudget(8_192 - MIN_REPLY_TOKENS, 1_024, 8_192)).toBe(MIN_REPLY_TOKENS);
  });

  it("refuses when less than the least reply is left, or than a smaller limit asked for", () => {
    expect(replyBudget(8_192 - MIN_REPLY_TOKENS + 1, 1_024, 8_192)).toBeNull();
    expect(replyBudget(8_192, 1_024, 8_192)).toBeNull();
    expect(replyBudget(8_100, 64, 8_192)).toBe(64);
    expect(replyBudget(8_150, 64, 8_192)).toBeNull();
  });

  it("without a limit, the reply may take all the room left", () => {
    expect(replyBudget(1_000, undefined, 2_048)).toBe(1_048);
    expect(replyBudget(2_000, undefined, 2_048)).toBeNull();
  });
});

describe("replyFinish", () => {
  it("a reply cut at its token limit finishes with length, a call in it included", () => {
    expect(replyFinish("maxTokens", true).unified).toBe("length");
    expect(replyFinish("maxTokens", false).unified).toBe("length");
    expect(replyFinish("eogToken", true).unified).toBe("tool-calls");
    expect(replyFinish("eogToken", false).unified).toBe("stop");
    expect(replyFinish("abort", false).unified).toBe("other");
  });
});
