#!/usr/bin/env node
/**
 * `spillway`: the human CLI: run agents, inspect their sessions, read the output store.
 *
 * Global options (accepted before or after the subcommand): `--home <dir>` (else
 * $SPILLWAY_HOME, else ~/.spillway) and `--json` (one JSON document on stdout, for scripts).
 *
 * Commands: `run` (run an agent), `sessions` (inspect runs), `outputs` (the output store),
 * `serve` (the HTTP API, SSE and the web inspector), `mcp` (the lossless MCP gateway),
 * `models` (local GGUF models: list, pull), `store` (what the store holds, retention, schema).
 *
 * Exit codes: 0 ok; 1 a spillway error (not found, invalid range, corrupt, …), a failed agent
 * run, or another runtime failure; 2 a usage error (unknown command or option, missing
 * argument, invalid flag value); 130 an agent run aborted by Ctrl-C. Errors print as
 * `error CODE: message` on stderr; with --json the error is the JSON document on stdout
 * instead: `{"error": {"code", "message", "details"}}` (one line with `"type": "error"` for
 * `run`, whose --json output is JSON Lines; see errors.ts).
 */
import { readFileSync } from "node:fs";
import { Command } from "commander";
import { reportError } from "./errors.js";

/**
 * The commands, each loaded only when used: `spillway serve` does not load the agent runtime
 * and `spillway outputs` does not load the HTTP server. Help without a command loads them all.
 */
const COMMANDS: Record<string, () => Promise<(program: Command) => void>> = {
  run: async () => (await import("./run-command.js")).addRunCommand,
  sessions: async () => (await import("./sessions-command.js")).addSessionsCommand,
  outputs: async () => (await import("./outputs-command.js")).addOutputsCommand,
  models: async () => (await import("./models-command.js")).addModelsCommand,
  store: async () => (await import("./store-command.js")).addStoreCommand,
  serve: async () => (await import("./serve-command.js")).addServeCommand,
  // The composition root: the gateway's command is registered here (see .dependency-cruiser.cjs).
  mcp: async () => (await import("../gateway/command.js")).addMcpCommand,
};

/** The subcommand named in the arguments (after global options), if any. */
function subcommandOf(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") return undefined;
    if (arg === "--home" || arg === "--store") i++;
    else if (!arg.startsWith("-")) return arg;
  }
  return undefined;
}

function packageVersion(): string {
  try {
    const text = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
    return (JSON.parse(text) as { version?: string }).version ?? "0.0.0";
  } catch {
    return "0.0.0";
  }
}

/**
 * The command tree (only `only` when it names a command, no command when `only` is null, else
 * all of them). Errors are thrown (exitOverride), never printed by commander.
 */
export async function buildProgram(only?: string | null): Promise<Command> {
  const program = new Command("spillway")
    .description(
      "Lossless tool outputs for LLM agents: run agents whose every tool result is stored whole, read back exactly.",
    )
    .version(packageVersion(), "-V, --version")
    .option("--home <dir>", "store directory (default: $SPILLWAY_HOME or ~/.spillway)")
    .option(
      "--store <url>",
      "a PostgreSQL store shared by several workers, postgres://user:password@host/db (default: $SPILLWAY_STORE; none: SQLite in --home)",
    )
    .option("--json", "print one JSON document on stdout (errors too), for scripts")
    .exitOverride()
    .configureOutput({ outputError: () => {} })
    .configureHelp({ showGlobalOptions: true })
    .addHelpText(
      "after",
      "\nExit codes: 0 ok, 1 spillway error (e.g. OUTPUT_NOT_FOUND) or failed run, 2 usage error,\n" +
        "130 run aborted by Ctrl-C.\n" +
        'Start with: spillway outputs demo, or spillway run <agent.md> "<task>"',
    );
  if (only === null) return program;
  const named = only !== undefined && only in COMMANDS ? only : undefined;
  for (const [name, load] of Object.entries(COMMANDS))
    if (named === undefined || named === name) (await load())(program);
  return program;
}

/** True when --json appears among the options (before a `--`), even if parsing failed. */
function wantsJson(args: readonly string[]): boolean {
  const end = args.indexOf("--");
  return (end === -1 ? args : args.slice(0, end)).includes("--json");
}

export async function main(argv: readonly string[] = process.argv): Promise<number> {
  const args = argv.slice(2);
  const subcommand = subcommandOf(args);
  // `spillway --version` prints the version without loading any command, so it answers at once.
  const versionOnly = subcommand === undefined && args.some((a) => a === "-V" || a === "--version");
  const program = await buildProgram(versionOnly ? null : subcommand);
  // `run --json` prints JSON Lines, so its errors are one JSON line too.
  let jsonLines = false;
  program.hook("preSubcommand", (_program, subcommand) => {
    jsonLines = subcommand.name() === "run";
  });
  // The config file's `store` applies when neither --store nor SPILLWAY_STORE gives one.
  program.hook("preAction", async (_program, action) => {
    const globals = action.optsWithGlobals<{ home?: string; store?: string }>();
    if (globals.store !== undefined || process.env.SPILLWAY_STORE) return;
    const { configuredStore } = await import("./context.js");
    const store = await configuredStore(globals.home);
    if (store !== undefined) program.setOptionValue("store", store);
  });
  try {
    await program.parseAsync([...argv]);
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (error) {
    return reportError(
      error,
      wantsJson(argv.slice(2)),
      {
        stdout: (text) => process.stdout.write(text),
        stderr: (text) => process.stderr.write(text),
      },
      { jsonLines },
    );
  }
}

// Let pending writes drain and exit naturally instead of calling process.exit().
process.exitCode = await main();
