/**
 * Bad input fuzz of the CLI's flags, agent frontmatter and config files: every generated input
 * is answered or refused with a typed error (CLI: exit 1 with a code, or exit 2 for usage,
 * never INTERNAL), and nothing stored changes. See fuzz-setup.ts for the run size.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command } from "commander";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { stringify } from "yaml";
import { reportError } from "../../src/cli/errors.js";
import { addOutputsCommand } from "../../src/cli/outputs-command.js";
import { addSessionsCommand } from "../../src/cli/sessions-command.js";
import { addStoreCommand } from "../../src/cli/store-command.js";
import { parseAgentFile } from "../../src/config/agent-file.js";
import { loadConfigFile } from "../../src/config/config-file.js";
import { FRONTMATTER_KEYS } from "../../src/config/frontmatter-schema.js";
import { isSpillwayError } from "../../src/core/errors.js";
import {
  count,
  type FuzzStore,
  fuzzStore,
  hostileString,
  hostileValue,
  mixedObject,
  outcomeReport,
  runs,
  smallHostileValue,
  snapshot,
} from "./fuzz-setup.js";

let home: string;
let work: string;
let fuzz: FuzzStore;
let before: unknown[];

beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), "spillway-fuzz-cli-"));
  work = await mkdtemp(join(tmpdir(), "spillway-fuzz-work-"));
  fuzz = await fuzzStore(home);
  before = await snapshot(fuzz.store);
}, 120_000);

afterAll(async () => {
  expect(await snapshot(fuzz.store)).toEqual(before);
  console.log(outcomeReport());
  await fuzz.store.close();
  await rm(home, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

/** Commands and their flags (store gc only as a dry run: the fuzz changes nothing stored). */
const COMMANDS: readonly { path: string[]; args: number; flags: string[] }[] = [
  { path: ["outputs", "list"], args: 0, flags: ["--session", "--status", "--limit", "--offset"] },
  { path: ["outputs", "show"], args: 1, flags: [] },
  {
    path: ["outputs", "slice"],
    args: 1,
    flags: [
      "--start",
      "--length",
      "--lines",
      "--line-start",
      "--line-end",
      "--anchor",
      "--window",
      "--match-index",
    ],
  },
  {
    path: ["outputs", "grep"],
    args: 2,
    flags: ["--regex", "-i", "-C", "--max", "--cursor", "--timeout-ms"],
  },
  { path: ["outputs", "page"], args: 1, flags: ["--cursor", "--chars", "--tokens"] },
  {
    path: ["outputs", "json"],
    args: 2,
    flags: ["--outline", "--offset", "--max", "--timeout-ms", "--max-memory-mb"],
  },
  { path: ["outputs", "export"], args: 1, flags: [] },
  { path: ["outputs", "verify"], args: 1, flags: [] },
  { path: ["sessions", "list"], args: 0, flags: ["--limit", "--offset", "--all"] },
  { path: ["sessions", "show"], args: 1, flags: [] },
  { path: ["store", "stats"], args: 0, flags: [] },
  { path: ["store", "gc"], args: 0, flags: ["--older-than", "--grace"] },
];

const word = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      "1",
      "0",
      "-1",
      "20",
      "1e3",
      "0x10",
      "NaN",
      "3:7",
      "7:3",
      "30d",
      "1m",
      "ERROR",
      "$..id",
      "(a+)+b",
      "",
    ),
  },
  { weight: 2, arbitrary: hostileString.map((s) => s.replaceAll("\u0000", "")) },
);

function argvOf(ids: string[]) {
  return fc.constantFrom(...COMMANDS).chain((command) =>
    fc
      .tuple(
        fc.array(
          fc.oneof(
            { weight: 4, arbitrary: fc.constantFrom(...ids) },
            { weight: 1, arbitrary: word },
          ),
          {
            minLength: command.args,
            maxLength: command.args + 1,
          },
        ),
        fc.array(
          fc.tuple(
            fc.oneof(
              {
                weight: command.flags.length > 0 ? 8 : 0,
                arbitrary: fc.constantFrom(...command.flags, "--json"),
              },
              { weight: 1, arbitrary: fc.constantFrom("--bogus", "--json", "--") },
            ),
            word,
            fc.boolean(),
          ),
          { maxLength: 4 },
        ),
      )
      .map(([positional, flags]) => {
        const argv = [...command.path, ...positional];
        for (const [flag, value, withValue] of flags)
          argv.push(flag, ...(withValue ? [value] : []));
        // Slow searches keep a short deadline; gc never removes anything here.
        if (command.path[1] === "grep" || command.path[1] === "json")
          argv.push("--timeout-ms", "300");
        if (command.path[1] === "gc") argv.push("--dry-run");
        return argv;
      }),
  );
}

/** Runs the CLI's command tree in this process with stdout and stderr captured. */
async function runCli(argv: string[]): Promise<{ exit: number; code?: string }> {
  const program = new Command("spillway")
    .option("--home <dir>")
    .option("--json")
    .exitOverride()
    .configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: () => {} });
  addSessionsCommand(program);
  addOutputsCommand(program);
  addStoreCommand(program);
  for (const command of program.commands) {
    command.exitOverride().configureOutput({ writeOut: () => {}, writeErr: () => {} });
    for (const sub of command.commands)
      sub.exitOverride().configureOutput({ writeOut: () => {}, writeErr: () => {} });
  }
  process.exitCode = undefined;
  let reported: string | undefined;
  const sink = {
    stdout: (text: string) => {
      const match = /"code": "([A-Z_]+)"/.exec(text);
      if (match) reported = match[1];
    },
    stderr: (text: string) => {
      const match = /^error ([A-Z_]+):/.exec(text);
      if (match) reported = match[1];
    },
  };
  try {
    await program.parseAsync(["node", "spillway", "--home", home, ...argv]);
    const exit = typeof process.exitCode === "number" ? process.exitCode : 0;
    return { exit };
  } catch (error) {
    const exit = reportError(error, argv.includes("--json"), sink);
    return { exit, ...(reported ? { code: reported } : {}) };
  } finally {
    process.exitCode = undefined;
  }
}

describe("bad input fuzz: CLI flags", () => {
  it("every command line is answered, or refused with a code and exit 1 or 2", async () => {
    const write = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const writeErr = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      await fc.assert(
        fc.asyncProperty(argvOf(fuzz.ids), async (argv) => {
          const { exit, code } = await runCli(argv);
          expect([0, 1, 2], argv.join(" ")).toContain(exit);
          expect(code, `INTERNAL for: spillway ${argv.join(" ")}`).not.toBe("INTERNAL");
          count(
            "cli",
            exit === 0 ? "exit 0" : `exit ${exit} ${code ?? "(reported by the command)"}`,
          );
        }),
        { numRuns: runs(120) },
      );
    } finally {
      write.mockRestore();
      writeErr.mockRestore();
    }
  }, 600_000);
});

const FILE_CODES = new Set(["AGENT_FILE_INVALID", "CONFIG_INVALID", "UNKNOWN_PROVIDER"]);

/** A typed refusal of a file that points at the place: a key, a line or a list of problems. */
function expectFileRefusal(error: unknown, text: string): void {
  if (!isSpillwayError(error))
    expect.fail(`not a typed error for ${text.slice(0, 300)}: ${String(error)}`);
  if (!FILE_CODES.has(error.code)) expect.fail(`${error.code}: ${error.message}`);
  const { details } = error;
  const located =
    details.key !== undefined ||
    details.line !== undefined ||
    Array.isArray(details.problems) ||
    details.file !== undefined;
  if (!located) expect.fail(`no key, line or file named: ${error.message}`);
}

const settingValue = (key: string): fc.Arbitrary<unknown> =>
  key === "models"
    ? fc.oneof(fc.constantFrom(["openai/gpt-4.1"], ["nope/x"], "ollama/llama3"), smallHostileValue)
    : key === "mcpServers"
      ? fc.oneof(
          fc.constant({ fs: { command: "mcp-server-filesystem", args: ["."] } }),
          fc.dictionary(hostileString, smallHostileValue, { maxKeys: 2 }),
        )
      : key === "agents"
        ? fc.oneof(fc.constant(["./missing.md"]), smallHostileValue)
        : fc.oneof(fc.integer({ min: -5, max: 2000 }), fc.boolean(), smallHostileValue);

describe("bad input fuzz: agent frontmatter and config files", () => {
  it("agent files: parsed, or AGENT_FILE_INVALID naming the key or line", async () => {
    const frontmatter = fc.oneof(
      mixedObject(FRONTMATTER_KEYS, settingValue, {}, smallHostileValue).map((data) =>
        stringify(data),
      ),
      hostileString,
      fc.constantFrom(
        "maxTurns: [",
        "a: b: c",
        "\t- x",
        "? [1]\n: 2",
        "models: !!binary AAA",
        "<<: *a",
      ),
    );
    await fc.assert(
      fc.asyncProperty(frontmatter, hostileString, async (yaml, body) => {
        const text = `---\n${yaml}\n---\n${body}`;
        try {
          await parseAgentFile(text, join(work, "agent.md"));
          count("agent file", "parsed");
        } catch (error) {
          expectFileRefusal(error, text);
          count("agent file", (error as { code: string }).code);
        }
      }),
      { numRuns: runs(120) },
    );
  }, 600_000);

  it("config files (YAML and JSON): loaded, or CONFIG_INVALID naming the key or line", async () => {
    const keys = ["providers", "defaults", "models", "mcpServers", "extraction", "toolOutput"];
    const content = fc.tuple(
      fc.oneof(
        mixedObject(keys, settingValue, {}, smallHostileValue),
        fc.dictionary(
          hostileString,
          hostileValue.filter((v) => typeof v !== "bigint"),
          { maxKeys: 3 },
        ),
      ),
      fc.constantFrom("yaml", "json"),
      fc.option(hostileString, { freq: 4 }),
    );
    await fc.assert(
      fc.asyncProperty(content, async ([data, format, raw]) => {
        const text =
          raw ??
          (format === "json"
            ? JSON.stringify(data, (_k, v) => (typeof v === "bigint" ? String(v) : v))
            : stringify(data));
        const path = join(work, `spillway.config.${format}`);
        await writeFile(path, text ?? "");
        try {
          await loadConfigFile(path);
          count("config file", "loaded");
        } catch (error) {
          expectFileRefusal(error, text ?? "");
          count("config file", (error as { code: string }).code);
        }
      }),
      { numRuns: runs(80) },
    );
  }, 600_000);
});
