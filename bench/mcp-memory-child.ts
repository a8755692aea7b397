/**
 * One measurement of bench:mcp-memory, in a process of its own so its peak RSS is its own:
 *   node --expose-gc --import tsx bench/mcp-memory-child.ts <mode> <bytes> <home> [file]
 * Modes:
 *   streamed  the runtime's path (spillTextOverBytes on): call big_log over stdio, turn the
 *             result into content (mcpContent) and store it (store.put), like a run does;
 *   buffered  the same with spilling off: the whole message, then the whole text, in memory;
 *   readfile  the floor: read the output's bytes from a file into one Buffer;
 *   baseline  the same modules loaded, a store and a hub opened, nothing read.
 * After warming up it resets the kernel's peak-RSS counter (/proc/self/clear_refs) and prints
 * one JSON line: peak RSS (VmHWM) during the measured work, RSS before it, time, bytes stored.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { mcpContent } from "../src/agent/session-tools.js";
import { isTextStream } from "../src/core/text-stream.js";
import { connectMcpServers } from "../src/providers/mcp/index.js";
import { openSqliteOutputStore } from "../src/store/index.js";

const [mode, bytesText, home, file] = process.argv.slice(2);
if (!mode || !bytesText || !home)
  throw new Error("usage: mcp-memory-child.ts <mode> <bytes> <home> [file]");
const bytes = Number(bytesText);

function statusBytes(field: "VmHWM" | "VmRSS"): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(
    readFileSync("/proc/self/status", "utf8"),
  );
  if (!match) throw new Error(`no ${field} in /proc/self/status`);
  return Number(match[1]) * 1024;
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

function resetPeak(): void {
  gc();
  writeFileSync("/proc/self/clear_refs", "5");
}

const server = {
  command: process.execPath,
  args: ["--import", "tsx", join(import.meta.dirname, "mcp-stream-server.ts")],
};
const store = await openSqliteOutputStore({ home });
const hub =
  mode === "streamed" || mode === "buffered" || mode === "baseline"
    ? await connectMcpServers(
        { bench: server },
        {
          callTimeoutMs: 600_000,
          ...(mode === "streamed"
            ? { spillTextOverBytes: 1024 * 1024, spillDir: join(home, "tmp") }
            : {}),
        },
      )
    : undefined;
await store.put(
  { sessionId: "ses_warm", toolName: "warm", toolArgs: "{}" },
  "warm-up ".repeat(20_000),
);
resetPeak();
const rssBefore = statusBytes("VmRSS");
const started = performance.now();
let stored = 0;
if (mode === "readfile") {
  stored = readFileSync(file!).byteLength;
} else if (mode === "streamed" || mode === "buffered") {
  const result = await hub!.callTool("bench__big_log", { bytes });
  const outcome = mcpContent(result);
  if (outcome.type !== "content" || outcome.text === undefined) throw new Error("no text content");
  const text = outcome.text;
  const record = await store.put(
    { sessionId: "ses_bench", toolName: "bench__big_log", toolArgs: JSON.stringify({ bytes }) },
    typeof text === "string" ? text : text.chunks(),
  );
  if (isTextStream(text)) await text.release();
  stored = record.byteSize ?? 0;
  const verified = await store.verify(record.id, { allSessions: true });
  if (!verified.ok) throw new Error("the stored output does not verify");
}
const ms = performance.now() - started;
const peak = statusBytes("VmHWM");
await hub?.close();
await store.close();
process.stdout.write(`${JSON.stringify({ mode, bytes, stored, rssBefore, peak, ms })}\n`);
