/**
 * "Verified" means verified (SW-22): a quote counts only when it is long enough and occurs in
 * exactly one place of the stored output, and an answer with no verified quote is not found.
 */
import { describe, expect, it } from "vitest";
import { engineFixture } from "../../test/helpers/extraction-fixture.js";
import { extractionAnswer, extractionCall } from "../testing/index.js";
import { MIN_QUOTE_CHARS } from "./quotes.js";
import { renderExtraction } from "./result.js";

const text = [
  ...Array.from({ length: 300 }, (_, i) => `2026-01-01T00:00:00Z INFO worker request ${i} ok`),
  "2026-01-01T00:05:00Z ERROR disk full on /var/data (code E-4411)",
  "2026-01-01T00:05:01Z WARN retrying write",
  "2026-01-01T00:05:02Z WARN retrying write",
  "",
].join("\n");

async function extract(quotes: string[], strategy: "full-chunked" | "read-grep" = "full-chunked") {
  const fixture = await engineFixture(
    (request) => {
      const call = extractionCall(request)!;
      return extractionAnswer(call.nonce, "The error is E-4411: disk full.", quotes);
    },
    { contextWindow: 100_000 },
  );
  return fixture.engine.run({
    output: await fixture.store(text),
    query: "What error code was logged?",
    strategy,
  });
}

describe("verified quotes", () => {
  it("an answer whose only quote is a short, common word is not found, and its claim is not shown", async () => {
    expect("INFO".length).toBeLessThan(MIN_QUOTE_CHARS);
    const result = await extract(["INFO"]);
    expect(result).toMatchObject({ found: false, snippets: [], unverified: 1 });
    const shown = renderExtraction(result);
    expect(shown).toContain("none of its quotes could be verified");
    expect(shown).not.toContain("E-4411");
  });

  it("a long quote found in several places pins nothing and is dropped", async () => {
    const repeated = "2026-01-01T00:05:01Z WARN retrying write".slice(20);
    expect(repeated.length).toBeGreaterThanOrEqual(MIN_QUOTE_CHARS);
    const result = await extract([repeated]);
    expect(result).toMatchObject({ found: false, unverified: 1 });
  });

  it("an answer with no quote at all is not found", async () => {
    expect(await extract([])).toMatchObject({ found: false, snippets: [] });
  });

  it("a unique quote verifies the answer, with its place", async () => {
    const line = "2026-01-01T00:05:00Z ERROR disk full on /var/data (code E-4411)";
    const result = await extract([line, "INFO"]);
    expect(result).toMatchObject({
      found: true,
      answer: "The error is E-4411: disk full.",
      unverified: 1,
    });
    expect(result.snippets).toEqual([expect.objectContaining({ text: line, lineStart: 301 })]);
  });
});
