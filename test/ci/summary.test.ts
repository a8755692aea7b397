import { execFileSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/built-cli.js";
import { tempDir } from "../helpers/temp-store.js";

/** Runs `.ci/summary.mjs` as .ci/run does; its two lines. */
function summary(args: string[]): string[] {
  return execFileSync(process.execPath, [join(ROOT, ".ci/summary.mjs"), ...args], {
    encoding: "utf8",
  })
    .trimEnd()
    .split("\n");
}

function vitestReport(passed: number, failed: number, pending: number, unloaded = 0): string {
  return JSON.stringify({
    numPassedTests: passed,
    numFailedTests: failed,
    numPendingTests: pending,
    numTodoTests: 0,
    testResults: [
      { status: "passed", assertionResults: [{ status: "passed" }] },
      ...Array.from({ length: unloaded }, () => ({ status: "failed", assertionResults: [] })),
    ],
  });
}

const PYTEST_XML = `<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="0" failures="1" skipped="2" tests="15" time="3.1"></testsuite></testsuites>`;

describe(".ci/summary.mjs", () => {
  it("names each suite and closes with one plain line adding them up", async () => {
    const dir = await tempDir("spillway-ci-summary-");
    await writeFile(join(dir, "vitest.json"), vitestReport(1290, 0, 3));
    await writeFile(join(dir, "pytest.xml"), PYTEST_XML);
    await writeFile(join(dir, "live.json"), vitestReport(10, 0, 1));
    expect(
      summary([
        `vitest=${join(dir, "vitest.json")}`,
        `pytest=${join(dir, "pytest.xml")}`,
        `live gate=${join(dir, "live.json")}`,
      ]),
    ).toEqual([
      "suites: vitest 1290 passed, 0 failed, 3 skipped · pytest 12 passed, 1 failed, 2 skipped · live gate 10 passed, 0 failed, 1 skipped",
      "1312 passed, 1 failed, 6 skipped",
    ]);
  });

  it("counts a suite that did not run, and a test file that failed to load, as failures", async () => {
    const dir = await tempDir("spillway-ci-summary-");
    await writeFile(join(dir, "vitest.json"), vitestReport(40, 0, 0, 2));
    await writeFile(join(dir, "broken.json"), "{ not json");
    expect(
      summary([
        `vitest=${join(dir, "vitest.json")}`,
        `pytest=${join(dir, "missing.xml")}`,
        `live gate=${join(dir, "broken.json")}`,
      ]),
    ).toEqual([
      "suites: vitest 40 passed, 2 failed (2 test files failed to load) · pytest 0 passed, 1 failed (did not run: no report) · live gate 0 passed, 1 failed (unreadable report)",
      "40 passed, 4 failed",
    ]);
  });
});
