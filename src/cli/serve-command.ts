/**
 * `spillway serve`: the HTTP API, SSE and the web inspector. Thin: parses flags and starts the
 * server (loaded on demand, so other commands do not pay for it). SIGINT/SIGTERM stop running
 * sessions gracefully and close the server; SIGHUP reloads the tokens file.
 */
import type { Command } from "commander";
import { describeStore } from "../store/open-stores.js";
import { contextOf } from "./context.js";
import { integer } from "./option-parsers.js";

interface ServeFlags {
  readonly host: string;
  readonly port: number;
  readonly token?: string;
  readonly tokensFile?: string;
  readonly agentsDir?: string;
  readonly cors?: string[];
  readonly maxOutputBytes?: number;
  readonly maxJsonBytes?: number;
  readonly rateLimit?: number;
  readonly maxRunningSessions?: number;
  readonly leaseTtl?: number;
  readonly maxUploads?: number;
  readonly uploadIdleTimeout?: number;
  readonly allowInlineCommands?: boolean;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Registers `serve`. */
export function addServeCommand(program: Command): void {
  program
    .command("serve")
    .description("serve the HTTP API (outputs, agent sessions, SSE) and the web inspector")
    .option("--host <address>", "address to bind; anything but loopback needs a token", "127.0.0.1")
    .option("--port <n>", "port (0 picks a free one)", integer(0, 65535), 7411)
    .option("--token <token>", "require this bearer token (or set $SPILLWAY_SERVE_TOKEN)")
    .option(
      "--tokens-file <file>",
      'JSON {"tenant": "token", …}: each tenant sees only its own sessions',
    )
    .option("--agents-dir <dir>", "agent paths resolve here and may not leave it (default: cwd)")
    .option("--cors <origin>", "allow this origin (repeatable; CORS is off by default)", collect)
    .option(
      "--max-output-bytes <n>",
      "largest output body (default: the store's limit)",
      integer(1),
    )
    .option("--max-json-bytes <n>", "largest JSON body (default 1048576)", integer(1))
    .option(
      "--rate-limit <n>",
      "requests a second per tenant, bursts of 2n (default: off)",
      integer(0),
    )
    .option("--max-running-sessions <n>", "running sessions per tenant (default 4)", integer(1))
    .option(
      "--lease-ttl <secs>",
      "a session's lease outlives its worker's last renewal this long; then another worker on the same store continues it (default 30)",
      integer(1, 3600),
    )
    .option(
      "--max-uploads <n>",
      "uploads a tenant may have in progress at once; more wait their turn (default 8)",
      integer(1, 10_000),
    )
    .option(
      "--upload-idle-timeout <secs>",
      "drop a request body that sends nothing for this long, with 408 (default 30)",
      integer(1, 3600),
    )
    .option(
      "--allow-inline-commands",
      "let inline agents declare MCP server commands (off by default)",
    )
    .action(async (flags: ServeFlags, command: Command) => {
      const context = contextOf(command);
      const { startServer } = await import("../server/serve.js");
      const token = flags.token ?? process.env.SPILLWAY_SERVE_TOKEN;
      const server = await startServer({
        host: flags.host,
        port: flags.port,
        home: context.home,
        ...(context.store ? { store: context.store } : {}),
        ...(token ? { token } : {}),
        ...(flags.tokensFile ? { tokensFile: flags.tokensFile } : {}),
        ...(flags.agentsDir ? { agentsDir: flags.agentsDir } : {}),
        ...(flags.cors ? { corsOrigins: flags.cors } : {}),
        ...(flags.maxOutputBytes ? { maxOutputBytes: flags.maxOutputBytes } : {}),
        ...(flags.maxJsonBytes ? { maxJsonBytes: flags.maxJsonBytes } : {}),
        ...(flags.rateLimit !== undefined ? { rateLimit: flags.rateLimit } : {}),
        ...(flags.maxRunningSessions ? { maxRunningSessions: flags.maxRunningSessions } : {}),
        ...(flags.leaseTtl ? { leaseTtlMs: flags.leaseTtl * 1000 } : {}),
        ...(flags.maxUploads ? { maxUploads: flags.maxUploads } : {}),
        ...(flags.uploadIdleTimeout ? { bodyIdleMs: flags.uploadIdleTimeout * 1000 } : {}),
        ...(flags.allowInlineCommands ? { allowInlineCommands: true } : {}),
      });
      const auth =
        token || flags.tokensFile ? "bearer token required" : "no token: this machine only";
      // One JSON line (like `run --json`): the server runs on after it.
      if (context.json)
        process.stdout.write(
          `${JSON.stringify({ type: "listening", url: server.url, home: context.home, store: describeStore(context, context.home) })}\n`,
        );
      else
        process.stderr.write(
          `spillway serve: ${server.url} (${auth}) · inspector ${server.url}/ · API ${server.url}/v1 · OpenAPI ${server.url}/openapi.json · store ${describeStore(context, context.home)}\n`,
        );
      await new Promise<void>((resolve) => {
        const stop = () => {
          process.stderr.write("spillway serve: stopping (running sessions wrap up)…\n");
          server.close().then(resolve, resolve);
        };
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
        // SIGHUP reloads the tokens file (revoking removed tokens); it never stops the server.
        process.on("SIGHUP", () => {
          server.reloadTokens().then(
            ({ tenants }) =>
              process.stderr.write(
                `spillway serve: reloaded ${flags.tokensFile}: ${tenants} tenant${tenants === 1 ? "" : "s"}\n`,
              ),
            (error: unknown) =>
              process.stderr.write(
                `spillway serve: SIGHUP: tokens unchanged: ${error instanceof Error ? error.message : String(error)}\n`,
              ),
          );
        });
      });
    });
}
