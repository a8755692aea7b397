/**
 * The tools of the test MCP server: outputs of any size and kind with a planted needle,
 * binary (image) content, a slow tool that honours cancellation, tool errors, a thrown error,
 * a crash of the whole server process, and echo.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { GENERATED_KINDS, generateBinary, generateOutputText } from "./generate-output.js";

/** The name and version the test MCP server reports. */
export const TEST_MCP_SERVER_INFO = { name: "spillway-test-mcp", version: "1.0.0" } as const;

/**
 * The largest `bytes` generate_output accepts: the JSON-RPC line carrying the result must fit
 * in one V8 string (about 512 MiB), and JSON escaping can double a text's length.
 */
export const MAX_GENERATED_BYTES = 256 * 1024 * 1024;

export interface TestMcpServerOptions {
  /** Aborts every running `slow` call (the server is shutting down). */
  shutdownSignal?: AbortSignal;
  /** Where diagnostics go; default process.stderr (never stdout: that is the protocol). */
  log?: (line: string) => void;
}

type TextResult = { content: { type: "text"; text: string }[]; isError?: boolean };

function text(value: string, isError = false): TextResult {
  return { content: [{ type: "text", text: value }], ...(isError ? { isError } : {}) };
}

/**
 * Creates the test MCP server with all its tools registered (not connected yet).
 *
 * @example
 * const server = createTestMcpServer();
 * await server.connect(new StdioServerTransport());
 */
export function createTestMcpServer(options: TestMcpServerOptions = {}): McpServer {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const server = new McpServer(TEST_MCP_SERVER_INFO);

  server.registerTool(
    "generate_output",
    {
      description:
        "Generate a deterministic text output of about `bytes` UTF-8 bytes of the given kind, " +
        "with `needle` planted at fraction `needle_at` of it.",
      inputSchema: {
        bytes: z.number().int().min(0).max(MAX_GENERATED_BYTES),
        kind: z.enum(GENERATED_KINDS),
        needle: z.string().optional(),
        needle_at: z.number().min(0).max(1).optional(),
        seed: z.number().int().optional(),
      },
    },
    ({ bytes, kind, needle, needle_at, seed }) => {
      const output = generateOutputText({
        bytes,
        kind,
        ...(needle !== undefined ? { needle } : {}),
        ...(needle_at !== undefined ? { needleAt: needle_at } : {}),
        ...(seed !== undefined ? { seed } : {}),
      });
      return text(output.text);
    },
  );

  server.registerTool(
    "generate_binary",
    {
      description:
        "Generate `bytes` PNG-like bytes (PNG signature, then seeded noise) as image content.",
      inputSchema: {
        bytes: z
          .number()
          .int()
          .min(8)
          .max(MAX_GENERATED_BYTES / 2),
        seed: z.number().int().optional(),
      },
    },
    ({ bytes, seed }) => ({
      content: [
        {
          type: "image",
          data: generateBinary(bytes, seed).toString("base64"),
          mimeType: "image/png",
        },
      ],
    }),
  );

  server.registerTool(
    "slow",
    {
      description:
        "Wait `seconds`, then return `text` (default 'done after N s'), as a tool error when `fail`. Stops early when cancelled.",
      inputSchema: {
        seconds: z.number().min(0).max(3600),
        text: z.string().optional(),
        fail: z.boolean().optional(),
      },
    },
    async ({ seconds, text: value, fail }, extra) => {
      const signals = [extra.signal, ...(options.shutdownSignal ? [options.shutdownSignal] : [])];
      const signal = AbortSignal.any(signals);
      const started = Date.now();
      const finished = await wait(seconds * 1000, signal);
      if (!finished) {
        log(`slow: cancelled after ${Date.now() - started} ms`);
        return text(`cancelled after ${Date.now() - started} ms`, true);
      }
      log(`slow: finished after ${Date.now() - started} ms`);
      return text(value ?? `done after ${seconds} s`, fail === true);
    },
  );

  server.registerTool(
    "fail",
    {
      description: "Return a tool error result (isError: true) with `message`.",
      inputSchema: { message: z.string() },
    },
    ({ message }) => text(message, true),
  );

  server.registerTool(
    "throw_error",
    {
      description: "Throw an exception with `message` inside the tool handler.",
      inputSchema: { message: z.string() },
    },
    ({ message }) => {
      throw new Error(message);
    },
  );

  server.registerTool(
    "crash",
    {
      description: "Exit the server process immediately, in the middle of the call.",
      inputSchema: { exit_code: z.number().int().min(0).max(255).optional() },
    },
    ({ exit_code }) => {
      log(`crash: exiting with code ${exit_code ?? 1}`);
      process.exit(exit_code ?? 1);
    },
  );

  server.registerTool(
    "echo",
    { description: "Return `text` unchanged.", inputSchema: { text: z.string() } },
    ({ text: value }) => text(value),
  );

  return server;
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
function wait(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
