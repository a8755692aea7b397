// Prints one plain line from vitest's JSON report and pytest's JUnit XML, e.g. "312 passed, 0 failed".
import { existsSync, readFileSync } from "node:fs";

const path = process.argv[2] ?? ".test-report/vitest.json";
const pytestPath = process.argv[3];

/** Counts from pytest's JUnit XML (the <testsuite> attributes). */
function pytestCounts(file) {
  if (!file || !existsSync(file)) return null;
  const xml = readFileSync(file, "utf8");
  const suite = /<testsuite\b([^>]*)>/.exec(xml);
  if (!suite) return null;
  const attr = (name) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(suite[1])?.[1] ?? 0);
  const failed = attr("failures") + attr("errors");
  const skipped = attr("skipped");
  return { passed: attr("tests") - failed - skipped, failed, skipped };
}

const py = pytestCounts(pytestPath);
if (!existsSync(path)) {
  console.log(
    `${py?.passed ?? 0} passed, ${py?.failed ?? 0} failed (no vitest report: lint, typecheck or build failed before the tests ran)`,
  );
  process.exit(0);
}
const report = JSON.parse(readFileSync(path, "utf8"));
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0) + (py?.skipped ?? 0);
const failedSuites = (report.testResults ?? []).filter(
  (suite) => suite.status === "failed" && (suite.assertionResults ?? []).length === 0,
).length;
let line = `${report.numPassedTests + (py?.passed ?? 0)} passed, ${report.numFailedTests + (py?.failed ?? 0)} failed`;
if (skipped > 0) line += `, ${skipped} skipped`;
if (failedSuites > 0) line += `, ${failedSuites} test files failed to load`;
if (pytestPath && !py) line += " (no pytest report: the Python test did not run)";
console.log(line);
