/**
 * Small rooms: every file of code stays under 400 lines (split by idea when it grows): the
 * library, its tests, the benchmarks, the evaluation, the inspector and its styles. The session
 * loop stays smaller still, with policy in the functions it calls.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CODE_DIRS, codeFiles } from "./code-files.js";

const root = join(import.meta.dirname, "../..");
const MAX_LINES = 400;
const MAX_SESSION_LOOP_LINES = 150;

const lineCount = (path: string) => readFileSync(join(root, path), "utf8").split("\n").length - 1;

describe("file sizes", () => {
  it(`every file of code has fewer than ${MAX_LINES} lines, tests included`, () => {
    const files = CODE_DIRS.flatMap((dir) => codeFiles(root, dir));
    expect(files.filter((f) => f.startsWith("src/")).length).toBeGreaterThan(100);
    expect(files.some((f) => f.endsWith(".test.ts"))).toBe(true);
    expect(files.some((f) => f.endsWith(".css"))).toBe(true);
    const large = files.map((f) => [f, lineCount(f)] as const).filter(([, n]) => n >= MAX_LINES);
    expect(large).toEqual([]);
  });

  it(`the session loop has fewer than ${MAX_SESSION_LOOP_LINES} lines`, () => {
    expect(lineCount("src/agent/session-loop.ts")).toBeLessThan(MAX_SESSION_LOOP_LINES);
  });
});
