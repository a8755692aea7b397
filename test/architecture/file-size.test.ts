/**
 * Small rooms: every source file stays under 400 lines (split by idea when it grows), and the
 * session loop stays small, with policy in the functions it calls.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "../..");
const MAX_LINES = 400;
const MAX_SESSION_LOOP_LINES = 150;

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter(
      (entry) => entry.isFile() && entry.name.endsWith(".ts") && !entry.name.includes(".test"),
    )
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

const lineCount = (path: string) => readFileSync(join(root, path), "utf8").split("\n").length - 1;

describe("file sizes", () => {
  it(`every source file under src/ has fewer than ${MAX_LINES} lines`, () => {
    const files = sourceFiles("src");
    expect(files.length).toBeGreaterThan(100);
    const large = files.map((f) => [f, lineCount(f)] as const).filter(([, n]) => n >= MAX_LINES);
    expect(large).toEqual([]);
  });

  it(`the session loop has fewer than ${MAX_SESSION_LOOP_LINES} lines`, () => {
    expect(lineCount("src/agent/session-loop.ts")).toBeLessThan(MAX_SESSION_LOOP_LINES);
  });
});
