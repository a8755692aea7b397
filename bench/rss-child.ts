/**
 * Peak RSS of one ingest, in a process of its own:
 *   node --expose-gc --import tsx bench/rss-child.ts <fixture> <store-root>
 * Warms the store up with a small put (tokenizer tables, SQLite statements), reads the fixture
 * into a flat string, collects garbage (the file's Buffer included), resets the kernel's peak-RSS counter (write "5" to
 * /proc/self/clear_refs), ingests, then reads VmHWM. Prints one JSON line.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { openSqliteOutputStore } from "../src/store/index.js";
import { readFixtureText } from "./fixtures.js";

const [fixturePath, root] = process.argv.slice(2);
if (!fixturePath || !root) throw new Error("usage: rss-child.ts <fixture> <store-root>");

/** A field of /proc/self/status, in bytes (the kernel reports kB). */
function statusBytes(field: "VmHWM" | "VmRSS"): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(
    readFileSync("/proc/self/status", "utf8"),
  );
  if (!match) throw new Error(`no ${field} in /proc/self/status`);
  return Number(match[1]) * 1024;
}

function resetPeak(): boolean {
  try {
    writeFileSync("/proc/self/clear_refs", "5");
    return true;
  } catch {
    return false;
  }
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const payloadBytes = (await stat(fixturePath)).size;
const home = await mkdtemp(join(root, "rss-"));
const store = await openSqliteOutputStore({ home });
const session = { sessionId: "ses_rss", toolName: "bench__read", toolArgs: "{}" };
await store.put(session, "warm-up ".repeat(20_000));
gc();
const warmRssBytes = statusBytes("VmRSS");
const text = await readFixtureText(fixturePath);
// The file's Buffer is only collectable once this continuation has moved on.
await sleep(20);
gc();
await sleep(20);
gc();
const cleared = resetPeak();
const baselineRssBytes = cleared ? statusBytes("VmHWM") : statusBytes("VmRSS");
const started = performance.now();
const record = await store.put(session, text);
const ingestMs = performance.now() - started;
const peakRssBytes = cleared ? statusBytes("VmHWM") : process.resourceUsage().maxRSS * 1024;
if (record.byteSize !== payloadBytes) throw new Error(`stored ${record.byteSize} bytes`);
await store.close();
await rm(home, { recursive: true, force: true });
process.stdout.write(
  `${JSON.stringify({
    payloadBytes,
    warmRssBytes,
    baselineRssBytes,
    peakRssBytes,
    method: cleared ? "clear_refs+VmHWM" : "maxRSS",
    ingestMs,
  })}\n`,
);
