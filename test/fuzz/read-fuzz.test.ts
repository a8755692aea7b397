/**
 * Bad input fuzz of the library's reads and the model-facing surfaces: every generated input
 * gets a result or a typed refusal (naming the argument when it is one), none crashes, and
 * nothing stored changes. See fuzz-setup.ts for the run size.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isSpillwayError } from "../../src/core/errors.js";
import { type RetrievalRequest, readOutput } from "../../src/retrieval/read-output.js";
import type { ReadScope } from "../../src/store/output-store.js";
import { openSqliteOutputStore } from "../../src/store/sqlite-output-store.js";
import { createSurface } from "../../src/surfaces/index.js";
import type { SurfaceContext } from "../../src/surfaces/surface.js";
import { tempDir } from "../helpers/temp-store.js";
import {
  count,
  expectTypedRefusal,
  type FuzzStore,
  fuzzStore,
  hostileObject,
  hostileString,
  hostileValue,
  mixedObject,
  outcomeReport,
  runs,
  smallHostileValue,
  snapshot,
} from "./fuzz-setup.js";

const MODE_KEYS: Record<string, string[]> = {
  raw: ["maxChars"],
  slice: ["start", "length", "lineStart", "lineEnd", "anchor", "window", "matchIndex", "maxChars"],
  grep: [
    "pattern",
    "regex",
    "ignoreCase",
    "context",
    "maxMatches",
    "cursor",
    "timeoutMs",
    "maxLineChars",
  ],
  page: ["cursor", "maxChars", "maxTokens", "tokenizer"],
  json: [
    "query",
    "outline",
    "offset",
    "maxResults",
    "maxChars",
    "maxJsonBytes",
    "timeoutMs",
    "maxMemoryMb",
  ],
  search: ["query", "maxResults", "maxLineChars", "timeoutMs", "maxCandidates"],
};

/** A value that suits the key (so requests get past the first check, and fail later or not). */
function validFor(key: string): fc.Arbitrary<unknown> {
  const word = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom("ERROR", "line 1", "café", "😀", "x", "0123") },
    { weight: 1, arbitrary: hostileString },
  );
  if (key === "query")
    return fc.oneof(
      {
        weight: 4,
        arbitrary: fc.constantFrom("$.items[0].id", "$..id", "$[0]", "$.items[*].text", "$..*"),
      },
      { weight: 1, arbitrary: hostileString },
    );
  if (key === "tokenizer") return fc.constantFrom("o200k_base", "cl100k_base");
  if (key === "pattern" || key === "anchor") return word;
  if (["regex", "ignoreCase", "outline"].includes(key)) return fc.boolean();
  if (key === "timeoutMs") return fc.integer({ min: 1, max: 300 });
  if (key === "maxMemoryMb") return fc.integer({ min: 16, max: 256 });
  if (key === "lineStart" || key === "lineEnd") return fc.integer({ min: 1, max: 3500 });
  return fc.integer({ min: 0, max: 5000 });
}

/** A plausible request uses one slice addressing style (mixing them is refused, rightly). */
function oneStyle(fields: Record<string, unknown>): Record<string, unknown> {
  const styles = [
    ["start", "length"],
    ["lineStart", "lineEnd"],
    ["anchor", "window", "matchIndex"],
  ];
  const used = styles.filter((keys) => keys.some((key) => Object.hasOwn(fields, key)));
  for (const keys of used.slice(1)) for (const key of keys) delete fields[key];
  return fields;
}

/** Requests of every mode, plausible and hostile; slow ones get short deadlines. */
const request = fc
  .constantFrom(
    "raw",
    "slice",
    "slice",
    "slice",
    "grep",
    "grep",
    "grep",
    "page",
    "page",
    "json",
    "json",
    "search",
    "search",
    "tail",
  )
  .chain((mode) =>
    fc
      .tuple(
        mixedObject(
          MODE_KEYS[mode] ?? ["x"],
          validFor,
          mode === "grep"
            ? { pattern: validFor("pattern") }
            : mode === "search"
              ? { query: validFor("pattern") }
              : {},
        ),
        fc.boolean(),
      )
      .map(([fields, tidy]) => {
        // Keep catastrophic patterns and JSON queries to a short deadline in a CI run.
        if ((mode === "grep" || mode === "json") && !Object.hasOwn(fields, "timeoutMs")) {
          fields.timeoutMs = 300;
        }
        return { mode, ...(mode === "slice" && tidy ? oneStyle(fields) : fields) };
      }),
  );

let home: string;
let fuzz: FuzzStore;
let before: unknown[];

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "spillway-fuzz-"));
  fuzz = await fuzzStore(home);
  before = await snapshot(fuzz.store);
}, 120_000);

afterAll(async () => {
  // Nothing stored changed: same records, same bytes (SHA-256 verified).
  expect(await snapshot(fuzz.store)).toEqual(before);
  console.log(outcomeReport());
  await fuzz.store.close();
  await rm(home, { recursive: true, force: true });
});

describe("bad input fuzz: library reads", () => {
  it("readOutput answers or refuses with a typed error, whatever the request, scope or id", async () => {
    const id = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...fuzz.ids) },
      { weight: 1, arbitrary: hostileValue },
    );
    const scope = fc.oneof(
      { weight: 6, arbitrary: fc.constant({ sessionId: fuzz.session }) },
      { weight: 1, arbitrary: hostileValue },
      {
        weight: 1,
        arbitrary: fc.constantFrom({}, { allSessions: false }, { sessionId: "ses_other" }),
      },
    );
    await fc.assert(
      fc.asyncProperty(id, scope, request, async (outputId, readScope, req) => {
        try {
          const result = await readOutput(
            fuzz.store,
            outputId as string,
            readScope as ReadScope,
            req as RetrievalRequest,
          );
          expect(result.mode).toBe(req.mode);
          count("readOutput", "answered");
        } catch (error) {
          expectTypedRefusal(error, { outputId, readScope, req });
          count("readOutput", error.code);
        }
      }),
      { numRuns: runs(160) },
    );
  }, 600_000);

  it("store.put and list refuse bad arguments with typed errors and store nothing else", async () => {
    const store = await openSqliteOutputStore({ home: await tempDir("spillway-fuzz-put-") });
    const origin = hostileObject(
      ["sessionId", "toolName", "toolArgs", "toolCallId", "createdAt"],
      (key) => (key === "createdAt" ? fc.integer({ min: 0 }) : fc.string({ minLength: 1 })),
      smallHostileValue,
    );
    const options = hostileObject(
      ["binary", "mediaType"],
      (key) => (key === "binary" ? fc.boolean() : fc.string()),
      smallHostileValue,
    );
    const filter = hostileObject(
      ["sessionId", "status", "limit", "offset"],
      (key) =>
        key === "status"
          ? fc.constantFrom("running", "ready", "failed")
          : fc.integer({ min: 0, max: 50 }),
      smallHostileValue,
    );
    try {
      await fc.assert(
        fc.asyncProperty(
          origin,
          smallHostileValue,
          options,
          filter,
          async (o, content, opts, f) => {
            const stored = (await store.list({ limit: 100_000 })).length;
            try {
              const record = await store.put(o as never, content as never, opts as never);
              expect(record.status).toBe("ready");
              expect((await store.list({ limit: 100_000 })).length).toBe(stored + 1);
              count("store.put", "stored");
            } catch (error) {
              expectTypedRefusal(error, { o, opts });
              expect((await store.list({ limit: 100_000 })).length).toBe(stored);
              count("store.put", error.code);
            }
            try {
              expect(Array.isArray(await store.list(f as never))).toBe(true);
              count("store.list", "answered");
            } catch (error) {
              expectTypedRefusal(error, f);
              count("store.list", error.code);
            }
          },
        ),
        { numRuns: runs(80) },
      );
    } finally {
      await store.close();
    }
  }, 600_000);
});

describe("bad input fuzz: model-facing surface tools", () => {
  const GET_TOOL_OUTPUT_KEYS = [
    "slice",
    "pattern",
    "regex",
    "ignore_case",
    "context",
    "max_matches",
    "cursor",
    "max_tokens",
    "json_query",
    "outline",
    "offset",
    "query",
    "max_results",
  ];
  const surfaceValue = (key: string) =>
    key === "slice"
      ? mixedObject(["start", "length", "anchor", "line_start", "line_end", "window"], (k) =>
          k === "anchor" ? hostileString : fc.integer({ min: 0, max: 3000 }),
        )
      : key === "regex"
        ? fc.constant(false)
        : key === "query"
          ? validFor("pattern")
          : validFor(key);
  const likely = <T>(valid: fc.Arbitrary<T>) =>
    fc.oneof({ weight: 5, arbitrary: valid }, { weight: 1, arbitrary: hostileValue });
  /** Plausible and hostile arguments for each surface's tool. */
  const argsOf = (name: string, ids: string[]): fc.Arbitrary<Record<string, unknown>> => {
    if (name === "tool_output") {
      return mixedObject(["extract"], () => hostileString, {
        handle: likely(fc.constantFrom(...ids)),
        extract: likely(fc.constantFrom("the errors", "line 7")),
        mode: likely(fc.constantFrom("truncate", "truncate", "auto", "full-chunked")),
      });
    }
    if (name === "get_continuation") {
      return mixedObject(["offset"], () => fc.integer({ min: -10, max: 300_000 }), {
        tool_call_id: likely(fc.constantFrom("call_1", "call_2")),
      });
    }
    return mixedObject(GET_TOOL_OUTPUT_KEYS, surfaceValue, {
      id: likely(fc.constantFrom(...ids)),
      mode: likely(fc.constantFrom("raw", "slice", "grep", "search", "page", "json")),
    });
  };

  it.each(["get_tool_output", "tool_output", "get_continuation"] as const)(
    "%s answers every call, bad ones with an error text the model can read",
    async (name) => {
      const surface = createSurface(name, { synopsisLines: 5, continuationChars: 4000 });
      const context: SurfaceContext = {
        outputs: fuzz.store,
        scope: { sessionId: fuzz.session },
        maxChars: 20_000,
        tokenizer: "o200k_base",
        outputOfToolCall: async () => fuzz.ids[0],
      };
      const toolName = surface.tools()[0]!.name;
      await fc.assert(
        fc.asyncProperty(argsOf(name, fuzz.ids), async (raw) => {
          // Deadlines of grep and json calls are the surface's; patterns stay cheap-to-refuse.
          if (raw.regex === true) raw.regex = false;
          try {
            const answer = await surface.execute(toolName, raw, context);
            expect(typeof answer.text).toBe("string");
            count(name, answer.isError ? "error text" : "answered");
            // Error texts: "Error CODE: …", or the compatibility surface's "TOOL_OUTPUT FAILED FOR
            // …". (get_continuation answers errors as JSON: {"error": "…"}).
            if (answer.isError)
              expect(answer.text).toMatch(/^Error [A-Z_]+: |FAILED FOR |^\{"error":/);
          } catch (error) {
            // A surface may refuse by throwing, but only with a typed error.
            expect(isSpillwayError(error), `${name} threw ${String(error)}`).toBe(true);
            count(name, "threw typed");
          }
        }),
        { numRuns: runs(60) },
      );
    },
    600_000,
  );
});
