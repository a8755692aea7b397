/**
 * What users read names behaviours, not the design documents spillway was built from: no
 * "seed 003", "seed-exact" or "seed framework" in README.md or docs/ prose. Code spans are let
 * through: a command's `--seed` and what it prints are the evaluation's own words.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { documentationFiles, linesOutsideCode } from "./markdown.js";

const root = join(import.meta.dirname, "../..");
const documents = documentationFiles(root);
const SEED_WORDS = /\bseed[ -]?0\d\d\b|\bseed framework\b|\bseed-exact\b|\bseedTexts\b|\bseed's\b/i;

/** Lines whose prose (outside code) uses seed vocabulary. */
function seedWordsIn(path: string, markdown: string): string[] {
  return linesOutsideCode(markdown)
    .map(({ line, text }) => ({ line, prose: text.replace(/(`+)[\s\S]*?\1/g, " ") }))
    .filter(({ prose }) => SEED_WORDS.test(prose))
    .map(({ line, prose }) => `${path}:${line}: ${prose.trim()}`);
}

describe("the words users read", () => {
  it("catches seed vocabulary in prose and lets API values written as code through", () => {
    const sample = "Keeps seed 003's menu.\nWith `asyncReadyMessage: seed-003` and `seedTexts`.\n";
    expect(seedWordsIn("x.md", sample)).toEqual(["x.md:1: Keeps seed 003's menu."]);
  });

  it("README.md and docs/ name behaviours, not seed documents", () => {
    const found = documents.flatMap((doc) =>
      seedWordsIn(doc, readFileSync(join(root, doc), "utf8")),
    );
    expect(found).toEqual([]);
  });
});
