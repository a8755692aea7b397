// Says what CI ran: a line naming each suite with its counts, then one plain closing line that
// adds them up, e.g.
//   suites: vitest 1290 passed, 0 failed, 3 skipped · pytest 12 passed, 0 failed · live gate 10 passed, 0 failed
//   1312 passed, 0 failed, 3 skipped
// The closing line stays alone on its line, as CI's runner reads it.
//
//   node .ci/summary.mjs <label>=<report> …
//
// A report ending in .xml is JUnit XML (pytest); any other is vitest's JSON report. A suite
// whose report is missing did not run (its command failed before its tests, or never
// started): it counts as one failure, and the suites line says so. So does a test file that
// failed to load.
import { existsSync, readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

/** Counts from JUnit XML: the <testsuite> attributes (pytest writes one). */
function junitCounts(xml) {
  const suite = /<testsuite\b([^>]*)>/.exec(xml);
  if (!suite) return null;
  const attr = (name) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(suite[1])?.[1] ?? 0);
  const failed = attr("failures") + attr("errors");
  const skipped = attr("skipped");
  return { passed: attr("tests") - failed - skipped, failed, skipped, notes: [] };
}

/** Counts from vitest's JSON report; files that failed to load count as failures. */
function vitestCounts(json) {
  const report = JSON.parse(json);
  const unloaded = (report.testResults ?? []).filter(
    (file) => file.status === "failed" && (file.assertionResults ?? []).length === 0,
  ).length;
  return {
    passed: report.numPassedTests ?? 0,
    failed: (report.numFailedTests ?? 0) + unloaded,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
    notes: unloaded > 0 ? [`${unloaded} test files failed to load`] : [],
  };
}

/** One suite's counts, or a single failure saying why there are none. */
export function suiteCounts(path) {
  const missing = (why) => ({ passed: 0, failed: 1, skipped: 0, notes: [why] });
  if (!existsSync(path)) return missing("did not run: no report");
  const text = readFileSync(path, "utf8");
  try {
    return (
      (path.endsWith(".xml") ? junitCounts(text) : vitestCounts(text)) ??
      missing("unreadable report")
    );
  } catch {
    return missing("unreadable report");
  }
}

/** The two lines for `label=path` arguments. */
export function summarize(args) {
  const total = { passed: 0, failed: 0, skipped: 0 };
  const parts = [];
  for (const arg of args) {
    const at = arg.indexOf("=");
    const label = at > 0 ? arg.slice(0, at) : arg;
    const counts = suiteCounts(at > 0 ? arg.slice(at + 1) : arg);
    total.passed += counts.passed;
    total.failed += counts.failed;
    total.skipped += counts.skipped;
    const skipped = counts.skipped > 0 ? `, ${counts.skipped} skipped` : "";
    const notes = counts.notes.length > 0 ? ` (${counts.notes.join("; ")})` : "";
    parts.push(`${label} ${counts.passed} passed, ${counts.failed} failed${skipped}${notes}`);
  }
  const skipped = total.skipped > 0 ? `, ${total.skipped} skipped` : "";
  return [
    `suites: ${parts.join(" · ")}`,
    `${total.passed} passed, ${total.failed} failed${skipped}`,
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of summarize(process.argv.slice(2))) console.log(line);
}
