// Prints one plain line from vitest's JSON report, e.g. "312 passed, 0 failed".
import { existsSync, readFileSync } from "node:fs";

const path = process.argv[2] ?? ".test-report/vitest.json";
if (!existsSync(path)) {
  console.log(
    "0 passed, 0 failed (no test report: lint, typecheck or build failed before the tests ran)",
  );
  process.exit(0);
}
const report = JSON.parse(readFileSync(path, "utf8"));
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
const failedSuites = (report.testResults ?? []).filter(
  (suite) => suite.status === "failed" && (suite.assertionResults ?? []).length === 0,
).length;
let line = `${report.numPassedTests} passed, ${report.numFailedTests} failed`;
if (skipped > 0) line += `, ${skipped} skipped`;
if (failedSuites > 0) line += `, ${failedSuites} test files failed to load`;
console.log(line);
