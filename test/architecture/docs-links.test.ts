/**
 * Every relative link in README.md, docs/ and the benchmarks' generated reports leads somewhere:
 * the file exists, and an anchor into a Markdown file names one of its headings (as GitHub makes
 * anchors of them).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { anchorsOf, documentationFiles, linksOf, slugOf } from "./markdown.js";

const root = join(import.meta.dirname, "../..");
/** The Markdown reports the benchmarks write under eval/, at any depth. */
function reportFiles(): string[] {
  return readdirSync(join(root, "eval"), { recursive: true, encoding: "utf8" })
    .filter((name) => /^report[^/]*\//.test(name) && name.endsWith(".md"))
    .map((name) => `eval/${name}`);
}

const documents = [...documentationFiles(root), ...reportFiles()];

const anchorCache = new Map<string, Set<string>>();
function anchorsOfFile(path: string): Set<string> {
  let anchors = anchorCache.get(path);
  if (!anchors) {
    anchors = anchorsOf(readFileSync(path, "utf8"));
    anchorCache.set(path, anchors);
  }
  return anchors;
}

/**
 * Links to what another change is bringing, each with why: reported while they do not resolve,
 * and a failure once they do, so the entry is removed then.
 */
const PENDING: Record<string, string> = {};

/** Why a link does not resolve, or null when it does. */
function brokenReason(from: string, target: string): string | null {
  if (/^[a-z][a-z+.-]*:/i.test(target)) return null; // https:, mailto: and the like
  const [pathPart = "", anchor] = target.split("#", 2);
  const path = pathPart === "" ? join(root, from) : join(root, dirname(from), decodeURI(pathPart));
  if (!existsSync(path)) return `no file ${relative(root, path)}`;
  if (anchor === undefined || anchor === "" || !path.endsWith(".md")) return null;
  return anchorsOfFile(path).has(anchor)
    ? null
    : `no heading #${anchor} in ${relative(root, path)}`;
}

describe("links in README.md, docs/ and the generated reports", () => {
  it("finds the documents and their links", () => {
    expect(documents).toContain("docs/architecture.md");
    expect(documents).toContain("eval/report-live/ablate-taskSearch/README.md");
    expect(
      documents.flatMap((doc) => linksOf(readFileSync(join(root, doc), "utf8"))).length,
    ).toBeGreaterThan(50);
  });

  it("makes anchors as GitHub does", () => {
    expect(slugOf("`get_tool_output` edge cases (the original table)")).toBe(
      "get_tool_output-edge-cases-the-original-table",
    );
    expect(slugOf("LangChain.js: spillway/langchain")).toBe("langchainjs-spillwaylangchain");
    expect([...anchorsOf("# A\n## Options\n```\n# not a heading\n```\n## Options\n")]).toEqual([
      "a",
      "options",
      "options-1",
    ]);
  });

  it("resolves every relative link to a file, and every anchor to a heading", () => {
    const broken: string[] = [];
    const resolvedPending: string[] = [];
    for (const doc of documents) {
      for (const { line, target } of linksOf(readFileSync(join(root, doc), "utf8"))) {
        const reason = brokenReason(doc, target);
        const pending = PENDING[`${doc} -> ${target}`];
        if (reason && pending) console.warn(`${doc}:${line}: (${target}) not checked: ${pending}`);
        else if (reason) broken.push(`${doc}:${line}: (${target}): ${reason}`);
        else if (pending) resolvedPending.push(`${doc} -> ${target}: resolves now`);
      }
    }
    expect(broken).toEqual([]);
    expect(resolvedPending, "remove these from PENDING in docs-links.test.ts").toEqual([]);
  });
});
