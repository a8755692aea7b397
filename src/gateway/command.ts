/**
 * `spillway mcp [options] -- <command> [args…]` or `spillway mcp --servers a,b`: the lossless
 * MCP gateway, over stdio (default) or Streamable HTTP (`--http [host:]port`). This file only
 * parses flags, opens the store and wires signals; the `spillway` program (src/cli/main.ts,
 * the composition root) registers it.
 */
import { readFileSync } from "node:fs";
import { type Command, InvalidArgumentError, Option } from "commander";
import { checkModelRef, loadConfig } from "../config/index.js";
import { resolveHome } from "../core/home.js";
import { describeStore, openStores, storeUrlOf } from "../store/open-stores.js";
import { type GatewayCliOptions, resolveGatewaySettings } from "./gateway-settings.js";
import { startHttpGateway } from "./http-gateway.js";
import { serveStdio } from "./stdio-gateway.js";

interface McpFlags {
  readonly servers?: string;
  readonly name?: string;
  readonly namespace?: boolean;
  readonly http?: { host: string; port: number };
  readonly session?: string;
  readonly config?: string;
  readonly maxInlineBytes?: number;
  readonly maxInlineTokens?: number;
  readonly maxReferenceBytes?: number;
  readonly maxReadChars?: number;
  readonly extractionModel?: string[];
  readonly sampling?: boolean;
  readonly samplingMaxTokens?: number;
  readonly samplingContextWindow?: number;
  readonly samplingConcurrency?: number;
  readonly toolTimeout?: number;
  readonly idleTimeout?: number;
  readonly durability?: "full" | "normal";
}

/** Parses `--http` values: `8080`, `0.0.0.0:8080`, `[::1]:8080`. */
export function hostPort(value: string): { host: string; port: number } {
  const match = /^(?:(\[[0-9a-fA-F:.]+\]|[^:[\]]+):)?(\d{1,5})$/.exec(value.trim());
  const port = match ? Number(match[2]) : Number.NaN;
  if (!match || port > 65_535) {
    throw new InvalidArgumentError(
      "Valid: [host:]port, e.g. 8080, 127.0.0.1:8080 or [::1]:8080 (port 0 picks a free one).",
    );
  }
  const host = match[1]?.replace(/^\[(.*)\]$/, "$1") ?? "127.0.0.1";
  return { host, port };
}

function serverNames(value: string): string[] {
  const names = value
    .split(",")
    .map((n) => n.trim())
    .filter(Boolean);
  if (names.length === 0) throw new InvalidArgumentError("Valid: server names, comma-separated.");
  return names;
}

function version(): string {
  try {
    const text = readFileSync(new URL("../../package.json", import.meta.url), "utf8");
    return (JSON.parse(text) as { version?: string }).version ?? "0.0.0";
  } catch {
    return "0.0.0";
  }
}

function cliOptions(command: readonly string[], flags: McpFlags): GatewayCliOptions {
  return {
    ...(command.length > 0 ? { command } : {}),
    ...(flags.servers !== undefined ? { servers: serverNames(flags.servers) } : {}),
    ...(flags.name !== undefined ? { name: flags.name } : {}),
    ...(flags.namespace !== undefined ? { namespace: flags.namespace } : {}),
    ...(flags.maxInlineBytes !== undefined ? { maxInlineBytes: flags.maxInlineBytes } : {}),
    ...(flags.maxInlineTokens !== undefined ? { maxInlineTokens: flags.maxInlineTokens } : {}),
    ...(flags.maxReferenceBytes !== undefined
      ? { maxReferenceBytes: flags.maxReferenceBytes }
      : {}),
    ...(flags.maxReadChars !== undefined ? { maxReadChars: flags.maxReadChars } : {}),
    ...(flags.extractionModel?.length ? { extractionModels: flags.extractionModel } : {}),
    ...(flags.sampling === false ? { sampling: false } : {}),
    ...(flags.samplingMaxTokens !== undefined
      ? { samplingMaxTokens: flags.samplingMaxTokens }
      : {}),
    ...(flags.samplingContextWindow !== undefined
      ? { samplingContextWindow: flags.samplingContextWindow }
      : {}),
    ...(flags.samplingConcurrency !== undefined
      ? { samplingConcurrency: flags.samplingConcurrency }
      : {}),
    ...(flags.toolTimeout !== undefined ? { toolTimeoutSecs: flags.toolTimeout } : {}),
    ...(flags.durability !== undefined ? { durability: flags.durability } : {}),
  };
}

/** A whole number in [min, max] (commander reports the flag and this text, exit 2). */
function integer(min: number, max = Number.MAX_SAFE_INTEGER): (value: string) => number {
  return (value) => {
    const parsed = /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
    if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
      throw new InvalidArgumentError(
        `Valid: a whole number ${max === Number.MAX_SAFE_INTEGER ? `>= ${min}` : `from ${min} to ${max}`}.`,
      );
    }
    return parsed;
  };
}

/** Model refs, comma-separated or repeated, each checked. */
function modelRefs(value: string, previous: readonly string[] | undefined): string[] {
  const refs = value.split(",").map((ref) => ref.trim());
  for (const ref of refs) {
    const checked = checkModelRef(ref);
    if (!checked.ok) {
      throw new InvalidArgumentError(
        `${ref === "" ? "An empty model ref" : checked.message}. Valid: "provider/model", e.g. "openai/gpt-4.1-mini".`,
      );
    }
  }
  return [...(previous ?? []), ...refs];
}

/** The `mcp` handler: serves until the client disconnects (stdio) or a signal (HTTP). */
export async function mcpCommand(
  home: string,
  command: readonly string[],
  flags: McpFlags,
  /** A PostgreSQL URL (--store, SPILLWAY_STORE); undefined: SQLite in `home`. */
  store?: string,
): Promise<number> {
  if (flags.http && flags.session !== undefined) {
    throw new InvalidArgumentError(
      "--session continues a stdio gateway session; over --http each MCP session is a new spillway session.",
    );
  }
  const config = await loadConfig({
    home,
    ...(flags.config !== undefined ? { path: flags.config } : {}),
  });
  const settings = resolveGatewaySettings(cliOptions(command, flags), config);
  const target = command.length > 0 ? command.join(" ") : `--servers ${flags.servers ?? ""}`;
  const log = (line: string) => process.stderr.write(`spillway mcp: ${line}\n`);
  const serverInfo = { name: "spillway", version: version() };
  // The store seam: the same stores agent runs use (sessions show, the inspector).
  const stores = await openStores({ home, store, synchronous: settings.durability });
  const stop = new AbortController();
  const onSignal = () => stop.abort(new Error("signal"));
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    if (flags.http) {
      const gateway = await startHttpGateway({
        settings,
        stores,
        host: flags.http.host,
        port: flags.http.port,
        description: `spillway mcp --http ${target}`,
        serverInfo,
        log,
        ...(flags.idleTimeout !== undefined ? { idleMs: flags.idleTimeout * 1000 } : {}),
      });
      log(`listening on ${gateway.url} (store ${describeStore({ store }, stores.home)})`);
      if (stop.signal.aborted === false) {
        await new Promise<void>((resolve) =>
          stop.signal.addEventListener("abort", () => resolve(), { once: true }),
        );
      }
      log("stopping: closing sessions and servers");
      await gateway.close();
      return 0;
    }
    const sessionId = await serveStdio({
      settings,
      stores,
      description: `spillway mcp -- ${target}`,
      serverInfo,
      log,
      signal: stop.signal,
      ...(flags.session !== undefined ? { resume: flags.session } : {}),
    });
    if (sessionId) log(`session ${sessionId} ended; spillway sessions show ${sessionId}`);
    return 0;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await stores.close();
  }
}

/**
 * Registers `spillway mcp` on a commander program (the `spillway` CLI).
 *
 * @example
 * const program = new Command("spillway").option("--home <dir>");
 * addMcpCommand(program);
 * await program.parseAsync(["node", "spillway", "mcp", "--", "npx", "-y", "@modelcontextprotocol/server-filesystem", "/data"]);
 */
export function addMcpCommand(program: Command): void {
  program
    .command("mcp")
    .description(
      "Serve a lossless MCP gateway in front of MCP servers: every tool result stored whole, large ones replaced by a handle message and read with get_tool_output.",
    )
    .argument("[command...]", "the MCP server to wrap: its command and arguments, after --")
    .option(
      "--servers <names>",
      "wrap these servers of the config file's mcpServers (comma-separated)",
    )
    .option("--name <name>", 'the name of the server given after -- (default "upstream")')
    .option("--namespace", "name tools server__tool even with one server")
    .addOption(
      new Option(
        "--http <[host:]port>",
        "serve Streamable HTTP on this address instead of stdio",
      ).argParser(hostPort),
    )
    .option("--session <id>", "stdio: continue this gateway session (its outputs stay readable)")
    .option("--config <path>", "the config file (default: spillway.config.json/.yaml lookup)")
    .option(
      "--max-inline-bytes <n>",
      "results up to this size pass through (default: toolResponseMaxBytes, 12288)",
      integer(0),
    )
    .option("--max-inline-tokens <n>", "... and up to this many tokens (default 10000)", integer(0))
    .option(
      "--max-reference-bytes <n>",
      "most bytes handle references (or a resource read) may carry per call (default 8388608)",
      integer(1),
    )
    .option(
      "--max-read-chars <n>",
      "most characters one get_tool_output answer holds (default 16000)",
      integer(1000),
    )
    .option(
      "--extraction-model <ref>",
      "extraction model when the client has no sampling (repeat or comma-separate)",
      modelRefs,
    )
    .option("--no-sampling", "never ask the client's model (sampling) for extraction")
    .option(
      "--sampling-max-tokens <n>",
      "maxTokens of each sampling request (default 2048)",
      integer(16),
    )
    .option(
      "--sampling-context-window <n>",
      "context window assumed for the client's model (default 64000)",
      integer(1024),
    )
    .option("--sampling-concurrency <n>", "sampling requests at once (default 4)", integer(1, 64))
    .option(
      "--tool-timeout <secs>",
      "inactivity limit of one upstream call (default: toolTimeoutSecs, 300)",
      integer(1),
    )
    .addOption(
      new Option(
        "--durability <mode>",
        "full: every output fsynced before the answer (default); normal: survives a gateway crash, not a power loss, answers faster",
      ).choices(["full", "normal"]),
    )
    .option(
      "--idle-timeout <secs>",
      "HTTP: close sessions idle this long (default 3600)",
      integer(1),
    )
    .action(async (command: string[], flags: McpFlags, self: Command) => {
      const globals = self.optsWithGlobals<{ home?: string; store?: string }>();
      process.exitCode = await mcpCommand(
        resolveHome(globals.home),
        command,
        flags,
        storeUrlOf(globals.store),
      );
    });
}
