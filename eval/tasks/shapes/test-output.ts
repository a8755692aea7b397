/**
 * A test runner's console output (Jest, `--verbose`): PASS and FAIL lines per test file, the
 * tests of each with ✓ or ✕, a ● block per failure (an assertion's Expected and Received values
 * and a code frame, or a thrown error), a stack line, console output, the summary of failures
 * repeated and the totals. Questions: the value a named test received, the first failing test,
 * the file and line a named failure points to, the one test file slower than ten seconds.
 */
import type { Rng } from "../../../src/core/rng.js";
import type { GeneratedFile, Shape } from "../types.js";
import { shuffled } from "../vocab.js";

const words = (list: string) => list.trim().split(/\s+/);

const AREAS = words(`
  cart checkout payments inventory search shipping auth orders catalog pricing users
  webhooks reports
`);
const MODULES = words(`
  totals discounts refund capture ledger reservations ranking rates session tokens export
  tax currency addresses retry signature pagination validation serializer scheduler
`);
const VERBS = words(`
  returns rejects accepts keeps rounds sorts merges caches skips formats computes retries
  normalizes validates parses expires
`);
const OBJECTS = [
  "an empty cart",
  "the order total",
  "a duplicate sku",
  "the shipping rate",
  "an expired token",
  "the refund amount",
  "a missing address",
  "the page cursor",
  "the currency code",
  "a partial capture",
  "the stock level",
  "a webhook signature",
  "the invoice number",
  "the tax line",
  "a negative quantity",
  "an unknown coupon",
];
/** Every title ends with a condition: no title is the start of another. */
const CONDITIONS = [
  " when the cache is cold",
  " for a guest user",
  " across time zones",
  " with a zero quantity",
  " on the second attempt",
  " after a timeout",
  " in strict mode",
  " for EUR and GBP",
  " when the list is empty",
  " with unicode input",
  " under concurrent updates",
  " for a single item",
  " at the page boundary",
];
/** Received values of the status kind (strings, printed quoted). */
const STATUSES = ["partially_refunded", "pending_review", "on_hold", "awaiting_capture", "voided"];
const FIELDS = ["amount", "total", "quantity", "count", "status"];

interface Failure {
  describe: string;
  title: string;
  path: string;
  /** The test file's line of the failing expect (or call), and its column. */
  line: number;
  col: number;
  /** An assertion with these values, or a thrown error from the source file. */
  expected?: string;
  received?: string;
  thrown?: { message: string; fn: string; line: number };
}

interface Suite {
  path: string;
  describe: string;
  tests: { title: string; ms: number; failure?: Failure; skipped?: boolean }[];
  seconds?: number;
  console?: string[];
}

const literal = (v: string) => (/^[\d.]+$/.test(v) ? v : `"${v}"`);

function failureBlock(f: Failure): string[] {
  const head = [`  ● ${f.describe} › ${f.title}`, ""];
  const pad = (n: number) => String(n).padStart(String(f.line + 2).length);
  if (f.thrown) {
    const t = f.thrown;
    return [
      ...head,
      `    TypeError: ${t.message}`,
      "",
      `      at ${t.fn} (${f.path.replace(".test.ts", ".ts")}:${t.line}:${f.col - 8})`,
      `      at Object.<anonymous> (${f.path}:${f.line}:${f.col})`,
      "",
    ];
  }
  const field = /^\d/.test(f.expected!) ? FIELDS[f.line % 4]! : "status";
  const code = `    expect(result.${field}).toBe(${literal(f.expected!)});`;
  const col = code.indexOf("toBe") + 1;
  return [
    ...head,
    "    expect(received).toBe(expected) // Object.is equality",
    "",
    `    Expected: ${literal(f.expected!)}`,
    `    Received: ${literal(f.received!)}`,
    "",
    `      ${pad(f.line - 2)} |     const result = await run(fixture);`,
    `      ${pad(f.line - 1)} |`,
    `    > ${pad(f.line)} | ${code}`,
    `      ${" ".repeat(String(f.line + 2).length)} | ${" ".repeat(col - 1)}^`,
    `      ${pad(f.line + 1)} |   });`,
    `      ${pad(f.line + 2)} |`,
    "",
    `      at Object.toBe (${f.path}:${f.line}:${col})`,
    "",
  ];
}

function renderSuite(s: Suite): string {
  const failed = s.tests.some((t) => t.failure);
  const time = s.seconds ? ` (${s.seconds.toFixed(3)} s)` : "";
  const out = [`${failed ? "FAIL" : "PASS"} ${s.path}${time}`];
  if (s.console) out.push("  ● Console", "", ...s.console.map((l) => (l ? `  ${l}` : l)), "");
  out.push(`  ${s.describe}`);
  for (const t of s.tests) {
    const mark = t.skipped ? "○ skipped" : t.failure ? "✕" : "✓";
    out.push(`    ${mark} ${t.title}${t.skipped ? "" : ` (${t.ms} ms)`}`);
  }
  out.push("");
  for (const t of s.tests) if (t.failure) out.push(...failureBlock(t.failure));
  return out.join("\n");
}

/** A received value of the failure's kind, never one already taken. */
function valuesOf(rng: Rng, taken: Set<string>): [string, string] {
  for (;;) {
    const pair: [string, string] = rng.chance(0.5)
      ? [String(rng.range(1000, 9000)), String(rng.range(1000, 9000))]
      : ["refunded", rng.pick(STATUSES)];
    if (pair[1] !== pair[0] && !taken.has(pair[1])) {
      taken.add(pair[1]);
      return pair;
    }
  }
}

export const testOutput: Shape = {
  name: "test-output",
  generate(rng, chars): GeneratedFile {
    const titles = new Set<string>();
    const titleOf = (): string => {
      for (;;) {
        const t = `${rng.pick(VERBS)} ${rng.pick(OBJECTS)}${rng.pick(CONDITIONS)}`;
        if (!titles.has(t)) {
          titles.add(t);
          return t;
        }
      }
    };
    const paths = shuffled(
      rng,
      AREAS.flatMap((a) => MODULES.map((m) => [`src/${a}/${m}.test.ts`, m] as const)),
    );
    const suites: Suite[] = [];
    let size = 400;
    while (size < chars * 0.9 && paths.length > 0) {
      const [path, describe] = paths.pop()!;
      const suite: Suite = {
        path,
        describe,
        tests: Array.from({ length: rng.range(3, 9) }, () => ({
          title: titleOf(),
          ms: rng.chance(0.9) ? rng.range(1, 40) : rng.range(100, 2400),
          ...(rng.chance(0.03) ? { skipped: true } : {}),
        })),
      };
      if (rng.chance(0.12)) suite.seconds = rng.range(5000, 8999) / 1000;
      suites.push(suite);
      size += renderSuite(suite).length + 1;
    }
    const n = suites.length;
    // Failing suites in the second half or so, the slow and near-slow ones anywhere else.
    const picks = shuffled(rng, [...Array(n).keys()].slice(Math.floor(n * 0.3)));
    const [failA, failB, failC] = picks.slice(0, 3).sort((a, b) => a - b);
    const [slowAt, nearAt] = shuffled(
      rng,
      [...Array(n).keys()].filter((i) => !picks.slice(0, 3).includes(i)),
    );

    // Five failures in three files, in output order.
    const failures: Failure[] = [];
    const taken = new Set<string>();
    for (const [at, count] of [
      [failA!, 2],
      [failB!, 2],
      [failC!, 1],
    ] as const) {
      const suite = suites[at]!;
      const slots = shuffled(rng, [...suite.tests.keys()])
        .slice(0, count)
        .sort((a, b) => a - b);
      let line = rng.range(14, 40);
      for (const slot of slots) {
        line += rng.range(12, 60);
        const test = suite.tests[slot]!;
        delete test.skipped;
        const [expected, received] = valuesOf(rng, taken);
        test.failure = {
          describe: suite.describe,
          title: test.title,
          path: suite.path,
          line,
          col: rng.range(20, 40),
          expected,
          received,
        };
        failures.push(test.failure);
      }
    }
    const [lookupAt, twinAt, crossAt, thrownAt] = shuffled(rng, [1, 2, 3, 4]);
    // One failure is a thrown error instead of an assertion (never a question's record).
    const thrown = failures[thrownAt!]!;
    thrown.thrown = {
      message: `Cannot read properties of undefined (reading '${rng.pick(FIELDS)}')`,
      fn: rng.pick(["computeRefund", "applyDiscount", "reserveStock", "nextCursor"]),
      line: rng.range(20, 180),
    };

    // lookup: the received value of a named test; a test titled almost the same failed too.
    const target = failures[lookupAt!]!;
    const twin = failures[twinAt!]!;
    let stem = "";
    let [endA, endB] = ["", ""];
    while (stem === "" || titles.has(`${stem}${endA}`) || titles.has(`${stem}${endB}`)) {
      stem = `${rng.pick(VERBS)} ${rng.pick(OBJECTS)}`;
      [endA = "", endB = ""] = shuffled(rng, CONDITIONS);
    }
    const rename = (f: Failure, title: string) => {
      for (const s of suites) for (const t of s.tests) if (t.failure === f) t.title = title;
      f.title = title;
    };
    rename(target, `${stem}${endA}`);
    rename(twin, `${stem}${endB}`);

    // ordinal: the first failing test; a passing test about failing over, and a console.error
    // from a passing file, come before it.
    const first = failures[0]!;
    const early = suites[rng.range(0, failA! - 1)]!;
    const failover = "fails over to the replica when the primary is down";
    early.tests[0]!.title = failover;
    const logger = suites[Math.max(0, failA! - 1)]!;
    logger.console = [
      "  console.error",
      `    webhook delivery failed: signature mismatch for evt_${rng.hex(12)}`,
      "",
      `      at Object.error (src/${logger.path.split("/")[1]}/logger.ts:${rng.range(20, 99)}:13)`,
    ];
    const loggerAt = logger.console[3]!.match(/\((\S+:\d+):\d+\)/)![1]!;

    // cross-field: the file and line a named failure points to.
    const cross = failures[crossAt!]!;
    const where = (f: Failure) => `${f.path}:${f.line}`;

    // pattern: one test file took more than ten seconds; another just under.
    const slow = suites[slowAt!]!;
    // Never a trailing zero: 12.340 read as 12.34 would not match.
    do slow.seconds = rng.range(10_100, 19_999) / 1000;
    while (slow.seconds.toFixed(3).endsWith("0"));
    const near = suites[nearAt!]!;
    near.seconds = rng.range(9_500, 9_990) / 1000;
    const total = (rng.range(40_000, 95_000) / 1000).toFixed(3);

    const failedSuites = suites.filter((s) => s.tests.some((t) => t.failure));
    const tests = suites.flatMap((s) => s.tests);
    const skipped = tests.filter((t) => t.skipped).length;
    const text = [
      "> shop@2.14.0 test",
      "> jest --ci --verbose",
      "",
      ...suites.map(renderSuite),
      "Summary of all failing tests",
      ...failedSuites.map((s) =>
        [
          `FAIL ${s.path}${s.seconds ? ` (${s.seconds.toFixed(3)} s)` : ""}`,
          ...s.tests.flatMap((t) => (t.failure ? failureBlock(t.failure) : [])),
        ].join("\n"),
      ),
      "",
      `Test Suites: ${failedSuites.length} failed, ${n - failedSuites.length} passed, ${n} total`,
      `Tests:       ${failures.length} failed, ${skipped} skipped, ${tests.length - failures.length - skipped} passed, ${tests.length} total`,
      "Snapshots:   0 total",
      `Time:        ${total} s`,
      "Ran all test suites.",
      "",
    ].join("\n");
    const received = (f: Failure) => f.received!;
    const secs = slow.seconds.toFixed(3);
    return {
      name: "test-output.txt",
      text,
      questions: [
        {
          kind: "lookup",
          expected: target.received!,
          decoys: [
            received(twin),
            ...failures.filter((f) => f !== target && !f.thrown).map(received),
          ],
          phrasings: [
            `What value did the test "${target.title}" receive? The run's output is {file}.`,
            `In {file}, the test '${target.title}' failed. What was the Received value?`,
            `{file}: "${target.describe} › ${target.title}", what did it actually get?`,
            `Why did "${target.title}" fail in {file}? Tell me the value it received instead of the expected one.`,
            `Find the failure of ${target.title} in {file} and give me the received value.`,
          ],
        },
        {
          kind: "ordinal",
          expected: first.title,
          decoys: [failover, ...failures.slice(1, 3).map((f) => f.title)],
          phrasings: [
            "Which test failed first in {file}? Give its name.",
            "What is the name of the first failing test in the output {file}?",
            "{file}: first ✕ in the run, which test was it?",
            "Going through {file} from the top, what's the first test that failed?",
            "I only want to look at the first failure in {file}. What test is it?",
          ],
        },
        {
          kind: "cross-field",
          expected: where(cross),
          accepted: [`${cross.path.split("/").at(-1)}:${cross.line}`],
          decoys: [loggerAt, ...failures.filter((f) => f !== cross).map(where)],
          phrasings: [
            `Which file and line does the failure of "${cross.title}" point to? See {file}.`,
            `In {file}, where did the test '${cross.title}' fail? Give the file:line.`,
            `{file}: location (path and line number) of the failing assertion in "${cross.title}"?`,
            `The test "${cross.title}" in the ${cross.describe} suite is failing. Which line of which test file, according to {file}?`,
            `Find the stack line for the failure of ${cross.title} in {file} and tell me the file and line.`,
          ],
        },
        {
          kind: "pattern",
          expected: secs,
          accepted: [`${secs}s`],
          decoys: [near.seconds.toFixed(3), total],
          phrasings: [
            "One test file in {file} took more than ten seconds. How long did it take?",
            "Which suite in {file} ran over 10 s, and what was its exact time?",
            "{file}: what's the duration of the only test file slower than 10 seconds?",
            "Is any test file in {file} slower than ten seconds? Report its time exactly as printed.",
            "Find the test suite whose time in {file} is above 10 seconds and give me the number.",
          ],
        },
      ],
    };
  },
};
