/**
 * The gateway benchmark: what `spillway mcp` costs a client, next to calling the same server
 * directly in the same run.
 *
 *   npm run bench:gateway
 *   npm run bench:gateway -- --calls 300 --mb 200 --repeats 2 --json
 *   npm run bench:gateway -- --quick          (50 MB, 100 calls)
 *
 * Real pieces: the official SDK client; the built `spillway mcp` (node dist/cli/main.js) over
 * stdio with a fresh SQLite store; the test MCP server (dist/testing/mcp-test-server.js) as the
 * server behind it. The direct baseline is the same client on the same server, with spillway's
 * McpStdioClientTransport (the SDK's own stdio transport caps a message at 10 MiB, so a
 * competent user of a 200 MB result needs a transport like it).
 *
 * 1. Added latency per small call: `echo` calls, direct and through the gateway, alternated in
 *    blocks; p50 of each and the difference (target: at most 2 ms). Through the gateway each
 *    call is stored whole before it is answered: measured with the default `--durability full`
 *    (the output's commit is fsynced) and with `--durability normal` (it survives a gateway
 *    crash, not a power loss). An fsync's cost is the disk's: on a shared, busy machine it
 *    alone can be several milliseconds.
 * 2. A large result: `generate_output` of N MB (log lines), direct (until the client has the
 *    decoded result) vs through the gateway (until the client has the handle message, i.e. the
 *    gateway has received, parsed and stored the result whole; target: at most 1.5x direct).
 *    The stored output's SHA-256 is checked against the text the direct call received.
 * 3. Peak RSS of the gateway process (VmHWM) over the run, next to the test server's own peak
 *    (which also holds the whole result once).
 *
 * Tables go to stdout, progress to stderr; with --json the last stdout line is one JSON object.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { McpStdioClientTransport } from "../src/providers/mcp/stdio-transport.js";
import { openSqliteStores } from "../src/store/sqlite-history-store.js";
import { fixed, median, ms, percentile, table, verdict } from "./report.js";

const ROOT = join(import.meta.dirname, "..");
const BIN = join(ROOT, "dist/cli/main.js");
const SERVER = join(ROOT, "dist/testing/mcp-test-server.js");
const TARGETS = { addedP50Ms: 2, largeRatio: 1.5 } as const;

interface Options {
  readonly json: boolean;
  readonly calls: number;
  readonly mb: number;
  readonly repeats: number;
}

function options(argv: readonly string[]): Options {
  const value = (name: string, fallback: number) => {
    const at = argv.indexOf(name);
    return at === -1 ? fallback : Number(argv[at + 1]);
  };
  const quick = argv.includes("--quick");
  return {
    json: argv.includes("--json"),
    calls: value("--calls", quick ? 100 : 300),
    mb: value("--mb", quick ? 50 : 200),
    repeats: value("--repeats", quick ? 1 : 2),
  };
}

const log = (line: string) => process.stderr.write(`${line}\n`);

/** Peak resident set (VmHWM) of a process, in MB, or null when unreadable. */
function peakRssMb(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  const status = `/proc/${pid}/status`;
  if (!existsSync(status)) return null;
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(status, "utf8"));
  return match ? Number(match[1]) / 1024 : null;
}

type Connected = { client: Client; transport: McpStdioClientTransport; name: string };

async function connect(name: string, command: string, args: string[]): Promise<Connected> {
  const transport = new McpStdioClientTransport({ command, args, serverName: name });
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(transport as Transport, { timeout: 120_000 });
  return { client, transport, name };
}

async function timedCall(
  connected: Connected,
  name: string,
  args: Record<string, unknown>,
): Promise<{ ms: number; result: Record<string, unknown> }> {
  const started = performance.now();
  const result = (await connected.client.callTool({ name, arguments: args }, undefined, {
    timeout: 600_000,
  })) as Record<string, unknown>;
  return { ms: performance.now() - started, result };
}

/** p50 of storing one small output in a fresh store with the given durability. */
async function putP50(home: string, synchronous: "full" | "normal"): Promise<number> {
  const stores = await openSqliteStores({ home: join(home, `commit-${synchronous}`), synchronous });
  const times: number[] = [];
  try {
    for (let i = 0; i < 100; i++) {
      const started = performance.now();
      await stores.outputs.put(
        { sessionId: "ses_bench", toolName: "echo", toolArgs: "{}" },
        `call ${i}`,
      );
      times.push(performance.now() - started);
    }
  } finally {
    await stores.close();
  }
  return median(times.slice(10));
}

async function main(): Promise<void> {
  const opts = options(process.argv.slice(2));
  for (const file of [BIN, SERVER]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: run npm run build first`);
  }
  const home = await mkdtemp(join(tmpdir(), "spillway-bench-gateway-"));
  const direct = await connect("direct", process.execPath, [SERVER]);
  const gatewayArgs = (durability: string) => [
    BIN,
    "--home",
    home,
    "mcp",
    "--durability",
    durability,
    "--",
    process.execPath,
    SERVER,
  ];
  const gateway = await connect("gateway", process.execPath, gatewayArgs("full"));
  const normal = await connect("normal", process.execPath, gatewayArgs("normal"));
  try {
    // 1. Small calls, alternated in blocks of 20 after a warm-up.
    log(`small calls: ${opts.calls} direct, ${opts.calls} through each gateway`);
    const paths = [direct, gateway, normal];
    for (const c of paths)
      for (let i = 0; i < 30; i++) await timedCall(c, "echo", { text: "warm" });
    const times: Record<"direct" | "gateway" | "normal", number[]> = {
      direct: [],
      gateway: [],
      normal: [],
    };
    for (let done = 0; done < opts.calls; done += 20) {
      for (const c of paths) {
        for (let i = 0; i < 20; i++) {
          const { ms: took, result } = await timedCall(c, "echo", { text: `call ${done + i}` });
          const text = (result.content as { text?: string }[])[0]?.text;
          if (text !== `call ${done + i}`) throw new Error(`${c.name}: echo answered ${text}`);
          times[c.name as "direct" | "gateway" | "normal"].push(took);
        }
      }
    }
    const p50 = {
      direct: median(times.direct),
      gateway: median(times.gateway),
      normal: median(times.normal),
    };
    const p90 = {
      direct: percentile(times.direct, 90),
      gateway: percentile(times.gateway, 90),
      normal: percentile(times.normal, 90),
    };
    const added = p50.gateway - p50.direct;
    const addedNormal = p50.normal - p50.direct;
    await normal.client.close();

    // The disk's part: p50 of storing one small output, fsynced or not, in this process.
    const commit = { full: await putP50(home, "full"), normal: await putP50(home, "normal") };

    // 2. The large result, alternated direct / gateway.
    const bytes = opts.mb * 1024 * 1024;
    const args = { bytes, kind: "log", needle: "BENCH-NEEDLE", needle_at: 0.5, seed: 7 };
    const large: Record<"direct" | "gateway", number[]> = { direct: [], gateway: [] };
    let expectedSha: string | undefined;
    let storedSha: string | undefined;
    for (let run = 1; run <= opts.repeats; run++) {
      log(`large result ${run}/${opts.repeats}: ${opts.mb} MB direct`);
      const d = await timedCall(direct, "generate_output", args);
      const text = (d.result.content as { text: string }[])[0]?.text ?? "";
      expectedSha = createHash("sha256").update(text).digest("hex");
      large.direct.push(d.ms);
      log(`large result ${run}/${opts.repeats}: ${opts.mb} MB through the gateway`);
      const g = await timedCall(gateway, "generate_output", args);
      const meta = (g.result._meta as Record<string, { sha256: string }[]> | undefined)?.[
        "io.github.spillway/outputs"
      ];
      storedSha = meta?.[0]?.sha256;
      if (storedSha !== expectedSha) {
        throw new Error(
          `stored SHA-256 ${storedSha} differs from the direct result's ${expectedSha}`,
        );
      }
      if (JSON.stringify(g.result).length > 64 * 1024)
        throw new Error("the gateway answered with more than a handle");
      large.gateway.push(g.ms);
    }
    const ratio = median(large.gateway) / median(large.direct);
    const rss = {
      gateway: peakRssMb(gateway.transport.pid),
      server: peakRssMb(direct.transport.pid),
    };

    console.log(
      table(
        `Small calls (echo), ${opts.calls} each, through the built spillway mcp over stdio vs direct`,
        ["path", "p50 ms", "p90 ms"],
        [
          ["direct (floor)", ms(p50.direct), ms(p90.direct)],
          ["gateway, --durability full (default)", ms(p50.gateway), ms(p90.gateway)],
          ["gateway, --durability normal", ms(p50.normal), ms(p90.normal)],
        ],
      ),
    );
    console.log(
      `storing one small output (SQLite, in process, p50): ${ms(commit.full)} ms fsynced, ${ms(commit.normal)} ms with synchronous=normal`,
    );
    console.log(
      `added p50: ${ms(added)} ms with full durability (target <= ${TARGETS.addedP50Ms} ms: ${verdict(added, TARGETS.addedP50Ms)}), ` +
        `${ms(addedNormal)} ms with normal (${verdict(addedNormal, TARGETS.addedP50Ms)})\n`,
    );
    console.log(
      table(
        `A ${opts.mb} MB result (generate_output, log), ${opts.repeats} run(s) each`,
        ["path", "median ms", "runs ms"],
        [
          [
            "direct (client has the result)",
            ms(median(large.direct)),
            large.direct.map(ms).join(" "),
          ],
          [
            "gateway (stored whole, handle answered)",
            ms(median(large.gateway)),
            large.gateway.map(ms).join(" "),
          ],
        ],
      ),
    );
    console.log(
      `gateway/direct: ${fixed(ratio)}x (target <= ${TARGETS.largeRatio}x: ${verdict(ratio, TARGETS.largeRatio)}); stored SHA-256 matches the direct result\n`,
    );
    console.log(
      `peak RSS: gateway process ${fixed(rss.gateway, 0)} MB (${fixed(rss.gateway === null ? null : rss.gateway / opts.mb)}x the result), ` +
        `test server (floor: it holds the result too) ${fixed(rss.server, 0)} MB`,
    );
    if (opts.json) {
      console.log(
        JSON.stringify({
          calls: opts.calls,
          smallP50Ms: p50,
          smallP90Ms: p90,
          addedP50Ms: added,
          addedP50Pass: added <= TARGETS.addedP50Ms,
          addedP50MsNormal: addedNormal,
          addedP50PassNormal: addedNormal <= TARGETS.addedP50Ms,
          storeCommitP50Ms: commit,
          largeMb: opts.mb,
          largeMs: large,
          largeRatio: ratio,
          largeRatioPass: ratio <= TARGETS.largeRatio,
          peakRssMb: rss,
          sha256: storedSha,
        }),
      );
    }
  } finally {
    await direct.client.close();
    await gateway.client.close();
    await rm(home, { recursive: true, force: true });
  }
}

await main();
