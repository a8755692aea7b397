/**
 * Memory of a large MCP result on its way into the store (issue: a 150 MB result cost
 * +1.35 GB RSS). A stdio MCP server (bench/mcp-stream-server.ts) returns a generated log of
 * N bytes in one JSON-RPC message; a client process calls it the way a run does (hub →
 * mcpContent → store.put) and reports its peak RSS. Each figure comes from a process of its own
 * (bench/mcp-memory-child.ts), all in the same run:
 *
 *   streamed  the runtime's path: strings over 1 MiB parsed into files, then streamed to the store
 *   buffered  spilling off (the path before streaming): whole message, whole text, in memory
 *   readfile  floor: reading the same N bytes from a file into one Buffer (holding them once)
 *   baseline  floor: the same modules, store and hub loaded, nothing read
 *
 * Target: streamed peak RSS <= 1.5 x N for N = 500 MB.
 *
 *   npm run bench:mcp-memory
 *   npm run bench:mcp-memory -- --mb 500 --buffered-mb 150 --json
 */
import { execFile } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { generateOutputBlocks } from "../src/core/synthetic/generate.js";
import { fixed, table, verdict } from "./report.js";

const run = promisify(execFile);
const TARGET_RATIO = 1.5;
const MB = 1_000_000;

interface Measure {
  mode: string;
  bytes: number;
  stored: number;
  rssBefore: number;
  peak: number;
  ms: number;
}

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
}

async function writeFixture(path: string, bytes: number): Promise<void> {
  const file = createWriteStream(path);
  const layout = { byteLength: 0, needleByteOffset: undefined, needleLine: undefined };
  for (const block of generateOutputBlocks(
    { bytes, kind: "log", needle: "NEEDLE-bench", needleAt: 0.9 },
    layout,
  )) {
    if (!file.write(block))
      await new Promise<void>((resolve) => file.once("drain", () => resolve()));
  }
  await new Promise<void>((resolve, reject) =>
    file.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
}

async function measure(mode: string, bytes: number, root: string, file?: string): Promise<Measure> {
  const home = await mkdtemp(join(root, `${mode}-`));
  process.stderr.write(`bench:mcp-memory ${mode} ${(bytes / MB).toFixed(0)} MB ...\n`);
  try {
    const { stdout } = await run(
      process.execPath,
      [
        "--expose-gc",
        "--import",
        "tsx",
        join(import.meta.dirname, "mcp-memory-child.ts"),
        mode,
        String(bytes),
        home,
        ...(file ? [file] : []),
      ],
      { maxBuffer: 1 << 20, timeout: 1_800_000 },
    );
    return JSON.parse(stdout.trim().split("\n").at(-1)!) as Measure;
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

const json = process.argv.includes("--json");
const bytes = Math.round(option("mb", 500) * MB);
const bufferedBytes = Math.round(option("buffered-mb", 150) * MB);
const root = await mkdtemp(join(tmpdir(), "spillway-bench-mcp-"));
try {
  const fixture = join(root, "output.log");
  await writeFixture(fixture, bytes);
  const baseline = await measure("baseline", bytes, root);
  const readfile = await measure("readfile", bytes, root, fixture);
  const streamed = await measure("streamed", bytes, root);
  const streamedSmall =
    bufferedBytes > 0 ? await measure("streamed", bufferedBytes, root) : undefined;
  const buffered = bufferedBytes > 0 ? await measure("buffered", bufferedBytes, root) : undefined;
  const mb = (value: number) => `${(value / MB).toFixed(0)} MB`;
  const row = (m: Measure, label: string) => [
    label,
    mb(m.bytes),
    mb(m.peak),
    `${fixed(m.peak / m.bytes)}x`,
    mb(m.peak - m.rssBefore),
    `${(m.ms / 1000).toFixed(1)} s`,
  ];
  const rows = [
    row(streamed, "streamed (runtime)"),
    row(readfile, "floor: read file into memory"),
    row(baseline, "floor: modules + store + hub, idle"),
    ...(streamedSmall ? [row(streamedSmall, "streamed (runtime)")] : []),
    ...(buffered ? [row(buffered, "buffered (spilling off)")] : []),
  ];
  const ratio = streamed.peak / bytes;
  process.stdout.write(
    `${table(
      "Peak RSS of one MCP result stored (each row a process of its own, same run)",
      ["path", "output", "peak RSS", "peak/output", "peak - before", "time"],
      rows,
    )}\n\ntarget: streamed peak RSS <= ${TARGET_RATIO} x output at ${mb(bytes)}: ${fixed(ratio)}x ${verdict(ratio, TARGET_RATIO)}\n`,
  );
  if (json) {
    process.stdout.write(
      `${JSON.stringify({
        outputBytes: bytes,
        streamedPeakRssBytes: streamed.peak,
        streamedPeakToOutput: ratio,
        streamedMs: streamed.ms,
        floorReadFilePeakRssBytes: readfile.peak,
        floorBaselineRssBytes: baseline.peak,
        ...(buffered && streamedSmall
          ? {
              comparisonBytes: bufferedBytes,
              bufferedPeakRssBytes: buffered.peak,
              bufferedMs: buffered.ms,
              streamedSmallPeakRssBytes: streamedSmall.peak,
              streamedSmallMs: streamedSmall.ms,
            }
          : {}),
        target: TARGET_RATIO,
        pass: ratio <= TARGET_RATIO,
      })}\n`,
    );
  }
} finally {
  await rm(root, { recursive: true, force: true });
}
