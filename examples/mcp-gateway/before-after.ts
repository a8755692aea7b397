/**
 * Before and after `spillway mcp`: the same 20 MB log read through the real
 * @modelcontextprotocol/server-filesystem, once directly and once through the gateway, and
 * what two MCP clients would hand their model in each case.
 *
 *   npm run build && npx tsx examples/mcp-gateway/before-after.ts
 *
 * Real: the server, the built `spillway mcp`, the official SDK client, the SQLite store.
 * Re-implemented (from the clients' sources and docs, the same code the evaluation uses,
 * eval/baselines.ts): what Claude Code does with an MCP result over MAX_MCP_OUTPUT_TOKENS
 * (25,000: an error instead of the result) and what Codex CLI does with a tool result over
 * 10 KiB (its first and last lines, 10 KiB in all). No model is involved: "the model" reads
 * what its client would show it; through the gateway it makes the exact call the handle
 * message names (a grep).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { viewOf } from "../../eval/baselines.js";
import type { Prepared } from "../../eval/prepared.js";
import type { Workload } from "../../eval/workload.js";
import { estimateTokens } from "../../src/core/tokens.js";
import { McpStdioClientTransport } from "../../src/providers/mcp/stdio-transport.js";
import { generateOutputText } from "../../src/testing/index.js";

const ROOT = join(import.meta.dirname, "../..");
const NEEDLE =
  "2026-03-14T09:26:53.589Z ERROR [payment-svc] db pool exhausted: 64/64 connections busy request_id=req_7f3c";

const require = createRequire(import.meta.url);
function filesystemServer(root: string): string[] {
  const packageJson = require.resolve("@modelcontextprotocol/server-filesystem/package.json");
  const { bin } = require(packageJson) as { bin: Record<string, string> };
  return [process.execPath, join(dirname(packageJson), Object.values(bin)[0]!), root];
}

async function client(command: string[]): Promise<Client> {
  const [program, ...args] = command as [string, ...string[]];
  // spillway's stdio transport: the SDK's own refuses messages over 10 MiB.
  const transport = new McpStdioClientTransport({ command: program, args });
  const c = new Client({ name: "before-after", version: "1.0.0" });
  await c.connect(transport as Transport, { timeout: 60_000 });
  return c;
}

/** What a client's cap shows the model of `text`, as the evaluation re-implements it. */
async function shown(policy: "claude-mcp-25k" | "codex-head-tail", text: string) {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  if (starts.at(-1) === text.length) starts.pop();
  const prepared: Prepared = {
    workload: { text } as Workload,
    outputTokens: (await estimateTokens(text)).tokens,
    lineStarts: starts,
    count: () => 0,
  };
  return viewOf(policy, prepared);
}

const textOf = (result: unknown) =>
  ((result as { content: { type: string; text?: string }[] }).content ?? [])
    .filter((c) => c.type === "text")
    .map((c) => c.text)
    .join("\n");

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "spillway-before-after-"));
  const home = join(dir, "home");
  const log = generateOutputText({
    bytes: 20 * 1024 * 1024,
    kind: "log",
    needle: NEEDLE,
    needleAt: 0.5,
    seed: 42,
  });
  const path = join(dir, "app.log");
  await writeFile(path, log.text);
  const server = filesystemServer(dir);
  const rows: string[][] = [];
  try {
    const direct = await client(server);
    const raw = textOf(
      await direct.callTool({ name: "read_text_file", arguments: { path } }, undefined, {
        timeout: 300_000,
      }),
    );
    await direct.close();
    const tokens = (await estimateTokens(raw)).tokens;
    for (const policy of ["claude-mcp-25k", "codex-head-tail"] as const) {
      const view = await shown(policy, raw);
      rows.push([
        `direct, ${policy === "claude-mcp-25k" ? "Claude Code (25,000-token cap)" : "Codex CLI (10 KiB head+tail)"}`,
        view.failure ??
          `${view.text.length.toLocaleString("en-US")} chars of ${raw.length.toLocaleString("en-US")}`,
        view.text.includes(NEEDLE) ? "yes" : "no",
      ]);
    }
    const through = await client([
      process.execPath,
      join(ROOT, "dist/cli/main.js"),
      "--home",
      home,
      "mcp",
      "--",
      ...server,
    ]);
    const handle = await through.callTool(
      { name: "read_text_file", arguments: { path } },
      undefined,
      { timeout: 300_000 },
    );
    const handleText = textOf(handle);
    const id = /stored whole as (out_\w+)/.exec(handleText)?.[1] as string;
    const grep = textOf(
      await through.callTool({
        name: "get_tool_output",
        arguments: { id, mode: "grep", pattern: "db pool exhausted" },
      }),
    );
    await through.close();
    for (const policy of ["claude-mcp-25k", "codex-head-tail"] as const) {
      const view = await shown(policy, handleText);
      const read = await shown(policy, grep);
      rows.push([
        `gateway, ${policy === "claude-mcp-25k" ? "Claude Code" : "Codex CLI"}`,
        `${view.failure ?? "handle message whole"} (${(await estimateTokens(handleText)).tokens} tokens), then a grep (${(await estimateTokens(grep)).tokens} tokens)`,
        read.text.includes(NEEDLE) ? "yes, with its line number" : "no",
      ]);
    }
    console.log(
      `A 20 MB log (${tokens.toLocaleString("en-US")} tokens), the answer on its middle line:\n`,
    );
    console.log("| path, client | what the model gets | the answer line? |\n| --- | --- | --- |");
    for (const row of rows) console.log(`| ${row.join(" | ")} |`);
    console.log(`\nThe grep through the gateway answered:\n${grep}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
