import { describe, expect, it } from "vitest";
import { countTokens, EXACT_COUNT_MAX_CHARS, estimateTokens, TokenSampler } from "./tokens.js";

describe("token estimation", () => {
  it("counts small texts exactly, special-token text included", async () => {
    const text = "hello <|endoftext|> world";
    const estimate = await estimateTokens(text);
    expect(estimate.method).toBe("exact:o200k_base");
    expect(estimate.tokens).toBe(await countTokens(text));
    expect(await countTokens("")).toBe(0);
  });

  it("samples large texts and lands within a few percent of the exact count", async () => {
    const kinds = {
      log: Array.from(
        { length: 6000 },
        (_, i) =>
          `2026-01-01T00:00:${String(i % 60).padStart(2, "0")}Z INFO svc-${i % 9} req=${(i * 7919) % 100000} took ${i % 300}ms`,
      ).join("\n"),
      cjk: Array.from(
        { length: 4000 },
        (_, i) => `第${i}行：日本語と中文のテキスト🎉、絵文字👩‍💻も含む。`,
      ).join("\n"),
      json: JSON.stringify(
        Array.from({ length: 3000 }, (_, i) => ({ id: i, name: `user${i}`, active: i % 2 === 0 })),
        null,
        2,
      ),
    };
    for (const [kind, text] of Object.entries(kinds)) {
      expect(text.length, kind).toBeGreaterThan(EXACT_COUNT_MAX_CHARS);
      const estimate = await estimateTokens(text);
      expect(estimate.method, kind).toMatch(/^sampled:o200k_base:\d+x2048$/);
      const exact = await countTokens(text);
      expect(Math.abs(estimate.tokens - exact) / exact, kind).toBeLessThan(0.05);
    }
  });

  it("samples evenly from text seen in pieces", async () => {
    const sampler = new TokenSampler();
    const piece = "abc ".repeat(16_384);
    let at = 0;
    for (let i = 0; i < 200; i++) {
      sampler.push(piece, at);
      at += piece.length;
    }
    const estimate = await sampler.finish(at, undefined);
    const exact = (await countTokens(piece)) * 200;
    expect(Math.abs(estimate.tokens - exact) / exact).toBeLessThan(0.02);
    expect(estimate.method).toMatch(/sampled/);
  });
});
