/**
 * Shared pieces of the bad-input fuzz: generated hostile values, a store holding one output of
 * each kind (a 50 MB single line among them), the check that nothing stored changed, and what
 * counts as a good refusal.
 *
 * The size of a run: SPILLWAY_FUZZ_SCALE (default 1: a CI-sized run of a few hundred inputs;
 * `npm run fuzz` uses 25, over 10,000 inputs in all).
 */
import fc from "fast-check";
import { expect } from "vitest";
import { isSpillwayError, type SpillwayError } from "../../src/core/errors.js";
import type { OutputRecord } from "../../src/store/output-store.js";
import {
  openSqliteOutputStore,
  type SqliteOutputStore,
} from "../../src/store/sqlite-output-store.js";

export const SCALE = Math.max(1, Number(process.env.SPILLWAY_FUZZ_SCALE ?? "1"));
/** Inputs of one property: `base` in a CI run, `base × scale` in `npm run fuzz`. */
export const runs = (base: number) => Math.round(base * SCALE);

/** One long line, no newline: 50 MB. */
export const FIFTY_MB_LINE = `${"0123456789abcdef".repeat(3_125_000)}`;

/** Strings a careless user or a model might send. */
export const hostileString = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary" }),
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "\ud800",
    "a\udc00b",
    "__proto__",
    "constructor",
    "toString",
    "$..*",
    "$..[?(@.s.match(/(a+)+b/))]",
    "$[",
    "$.a[?(@.b==",
    "(a+)+b",
    "(x+x+)+y",
    "^(a|a)*$",
    "[",
    "\\",
    "out_",
    "out_00000000000000000000000000",
    "../../etc/passwd",
    "\u001b[2J",
    "ERROR",
    "😀".repeat(100),
  ),
);

/** Numbers of every wrong shape. */
export const hostileNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(
    -1,
    0,
    1,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    Number.NEGATIVE_INFINITY,
    2 ** 53,
    -(2 ** 53),
    1e308,
    0.5,
    -0,
  ),
);

/** Any value of a small size, hostile ones weighted up. */
export const smallHostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: hostileNumber },
  { weight: 3, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.bigInt() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constantFrom(null, undefined, [], {}, [1, 2], { a: 1 }) },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
);

/** Any value, hostile ones weighted up, a 50 MB single line among them. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: hostileNumber },
  { weight: 3, arbitrary: hostileString },
  { weight: 1, arbitrary: fc.bigInt() },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constantFrom(null, undefined, [], {}, [1, 2], { a: 1 }) },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
  { weight: 1, arbitrary: fc.constant(FIFTY_MB_LINE) },
);

/**
 * An object with some of `keys` (and sometimes a `__proto__` or unknown key), each holding a
 * valid-looking value from `valid` or a hostile one.
 */
export function hostileObject(
  keys: readonly string[],
  valid: (key: string) => fc.Arbitrary<unknown>,
  hostile: fc.Arbitrary<unknown> = hostileValue,
): fc.Arbitrary<Record<string, unknown>> {
  const entry = fc
    .constantFrom(...keys, "__proto__", "unknownKey", "constructor")
    .chain((key) =>
      fc.tuple(fc.constant(key), keys.includes(key) ? fc.oneof(valid(key), hostile) : hostile),
    );
  return fc.array(entry, { maxLength: 5 }).map((entries) => {
    const object: Record<string, unknown> = {};
    for (const [key, value] of entries) {
      Object.defineProperty(object, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return object;
  });
}

/**
 * Objects over `keys`: half plausible (known keys, valid values, sometimes one hostile field),
 * half hostile ({@link hostileObject}), so inputs both pass the first check and fail later.
 */
export function mixedObject(
  keys: readonly string[],
  valid: (key: string) => fc.Arbitrary<unknown>,
  required: Record<string, fc.Arbitrary<unknown>> = {},
  hostileValues: fc.Arbitrary<unknown> = hostileValue,
): fc.Arbitrary<Record<string, unknown>> {
  const plausible = fc
    .tuple(
      fc.record(Object.fromEntries(keys.map((key) => [key, valid(key)])), { requiredKeys: [] }),
      fc.record(required),
      fc.option(fc.tuple(fc.constantFrom(...keys), smallHostileValue), { freq: 3 }),
    )
    .map(([fields, must, bad]) => ({ ...fields, ...must, ...(bad ? { [bad[0]]: bad[1] } : {}) }));
  const hostile = fc
    .tuple(hostileObject(keys, valid, hostileValues), fc.record(required))
    .map(([fields, must]) => ({ ...must, ...fields }));
  return fc.oneof({ weight: 2, arbitrary: plausible }, { weight: 1, arbitrary: hostile });
}

/** The outputs the fuzz reads: every kind, an empty one and a 50 MB single line. */
export interface FuzzStore {
  readonly store: SqliteOutputStore;
  readonly ids: string[];
  readonly session: string;
}

export async function fuzzStore(home: string): Promise<FuzzStore> {
  const store = await openSqliteOutputStore({ home, inlineMaxBytes: 4096 });
  const session = "ses_fuzz";
  const put = async (content: string | Uint8Array, binary = false) =>
    (
      await store.put(
        { sessionId: session, toolName: "fuzz__tool", toolArgs: "{}" },
        content,
        binary ? { binary: true } : {},
      )
    ).id;
  const lines = Array.from(
    { length: 3000 },
    (_, i) => `line ${i} ERROR café 😀 ${"x".repeat(i % 50)}`,
  );
  const ids = [
    await put(lines.join("\n")),
    await put(JSON.stringify({ items: lines.slice(0, 500).map((text, id) => ({ id, text })) })),
    await put(
      lines
        .slice(0, 200)
        .map((text, id) => JSON.stringify({ id, text }))
        .join("\n"),
    ),
    await put(
      Uint8Array.from({ length: 5000 }, (_, i) => (i * 7) % 256),
      true,
    ),
    await put(""),
    await put(FIFTY_MB_LINE),
  ];
  // Another session's output: never readable from the fuzz session's scope.
  await store.put({ sessionId: "ses_other", toolName: "t", toolArgs: "{}" }, "secret");
  return { store, ids, session };
}

/** Every record (read counts aside) and whether its bytes still hash to its SHA-256. */
export async function snapshot(store: SqliteOutputStore): Promise<unknown[]> {
  const records = await store.list({ limit: 1000 });
  const all = { allSessions: true } as const;
  return Promise.all(
    records.map(async (record: OutputRecord) => {
      const { readCount: _reads, ...rest } = record;
      const verified = record.status === "ready" ? (await store.verify(record.id, all)).ok : null;
      return { ...rest, verified };
    }),
  );
}

const REFUSALS = new Set([
  "INVALID_ARGUMENT",
  "INVALID_RANGE",
  "INVALID_PATTERN",
  "INVALID_QUERY",
  "INVALID_JSON",
  "INVALID_TOOL_ARGUMENTS",
  "PATTERN_TIMEOUT",
  "QUERY_TIMEOUT",
  "QUERY_TOO_COSTLY",
  "RANGE_TOO_LARGE",
  "OUTPUT_TOO_LARGE",
  "OUTPUT_NOT_FOUND",
  "UNSUPPORTED_KIND",
  "EXTRACTION_FAILED",
]);

/** How each fuzz target's inputs ended: answered, or refused with which code. */
export const outcomes = new Map<string, number>();

export function count(target: string, outcome: string): void {
  const key = `${target} ${outcome}`;
  outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
}

/** The tally, one line per target and outcome, and the total. */
export function outcomeReport(): string {
  const lines = [...outcomes.entries()].sort().map(([key, n]) => `  ${key}: ${n}`);
  const total = [...outcomes.values()].reduce((a, b) => a + b, 0);
  return `[fuzz] ${total} inputs (scale ${SCALE}):\n${lines.join("\n")}`;
}

/** A short description of a fuzz input for a failure message (values cut before quoting). */
function shown(input: unknown): string {
  try {
    return (
      JSON.stringify(input, (_key, value: unknown) =>
        typeof value === "bigint"
          ? `${value}n`
          : typeof value === "string" && value.length > 80
            ? `${value.slice(0, 80)}…(${value.length} chars)`
            : value,
      ) ?? String(input)
    ).slice(0, 400);
  } catch {
    return String(input);
  }
}

/** A good refusal: a typed error of an expected code, naming the argument when it is one. */
export function expectTypedRefusal(error: unknown, input: unknown): asserts error is SpillwayError {
  // Messages are built only on failure: inputs may hold 50 MB strings.
  if (!isSpillwayError(error)) {
    expect.fail(`not a typed error for ${shown(input)}: ${String(error)}`);
  }
  const typed = error as SpillwayError;
  if (!REFUSALS.has(typed.code)) expect.fail(`${typed.code} for ${shown(input)}: ${typed.message}`);
  if (typed.code === "INVALID_ARGUMENT" || typed.code === "INVALID_RANGE") {
    const argument = typed.details.argument;
    if (typeof argument !== "string" || argument.length === 0 || !/valid/i.test(typed.message)) {
      expect.fail(`no argument or validity named for ${shown(input)}: ${typed.message}`);
    }
  }
}
