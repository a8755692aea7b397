/**
 * What users and engineers read names behaviours, not the design documents spillway was built
 * from, which are not in the repository: no "seed 003", "seed-exact" or "seed framework" in
 * README.md or docs/ prose, nor in the code's comments, names and texts. Code spans in the docs
 * are let through: a command's `--seed` and what it prints are the evaluation's own words, as a
 * random seed is everywhere.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CODE_DIRS, codeFiles } from "./code-files.js";
import { documentationFiles, linesOutsideCode } from "./markdown.js";

const root = join(import.meta.dirname, "../..");
const documents = documentationFiles(root);
const SEED_WORDS = /\bseed[ -]?0\d\d\b|\bseed framework\b|\bseed-exact\b|\bseedTexts\b|\bseed's\b/i;

/** In code: design-document names, and identifiers built on them. */
const SEED_WORDS_IN_CODE = /\bseed[ -]?0\d\d\b|\bseed framework\b|\bseed-exact\b|\bseedExact\b/i;
/** The AI SDK adapter's deprecated option, kept so existing code keeps working. */
const DEPRECATED_ALIAS = /\bseedTexts\b/;
const ALIAS_FILES = new Set(["src/ai/prepare-step.ts", "src/ai/ai-sdk-async.e2e.test.ts"]);

/** Lines of a code file that name the design documents (the deprecated alias aside). */
function seedWordsInCode(path: string, code: string): string[] {
  return code
    .split("\n")
    .map((text, index) => ({ line: index + 1, text }))
    .filter(
      ({ text }) =>
        SEED_WORDS_IN_CODE.test(text) || (!ALIAS_FILES.has(path) && DEPRECATED_ALIAS.test(text)),
    )
    .map(({ line, text }) => `${path}:${line}: ${text.trim()}`);
}

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

  it("catches design-document names in code and lets a random seed through", () => {
    const sample =
      "// Seed 003's menu.\nconst seed = 42;\nconst seedExact = true;\nuse({ seedTexts });\n";
    expect(seedWordsInCode("src/x.ts", sample)).toEqual([
      "src/x.ts:1: // Seed 003's menu.",
      "src/x.ts:3: const seedExact = true;",
      "src/x.ts:4: use({ seedTexts });",
    ]);
    expect(seedWordsInCode("src/ai/prepare-step.ts", "use({ seedTexts });")).toEqual([]);
  });

  it("the code's comments, names and texts name behaviours, not seed documents", () => {
    const self = "test/architecture/docs-vocabulary.test.ts";
    const files = CODE_DIRS.flatMap((dir) => codeFiles(root, dir)).filter((f) => f !== self);
    expect(files.length).toBeGreaterThan(300);
    const found = files.flatMap((file) =>
      seedWordsInCode(file, readFileSync(join(root, file), "utf8")),
    );
    expect(found).toEqual([]);
  });
});
