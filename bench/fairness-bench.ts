/**
 * bench:fairness — one tenant's costly reads against another's, on a real `spillway serve`
 * process (the built CLI) with two tenants. The figure: the latency of tenant B's trivial
 * regex grep while tenant A has N catastrophic greps (`(a+)+$` on 40 a's and a "!", which never
 * finish before the 5 s deadline) in flight, next to its floor, the same grep on the idle
 * server, measured in the same run:
 *  - abandoned: A's clients send N greps and go away after 100 ms (the case the issue found);
 *  - waiting: A's clients keep waiting for their N greps.
 *
 *   npm run build && npm run bench:fairness [-- --bombs 8 --samples 10 --json]
 *
 * Tables go to stdout, progress to stderr; with --json the last stdout line is one JSON object.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { median, ms, percentile, table } from "./report.js";
import { startServerChild } from "./serve-fixture.js";

const TOKENS = { a: "tenant-a-token-0123456789", b: "tenant-b-token-0123456789" };
const BOMB = encodeURIComponent("(a+)+$");

interface Options {
  json: boolean;
  bombs: number;
  samples: number;
}

function parseOptions(argv: readonly string[]): Options {
  const o: Options = { json: false, bombs: 8, samples: 10 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--json") o.json = true;
    else if (arg === "--bombs" || arg === "--samples") {
      const value = Number(argv[++i]);
      if (!Number.isInteger(value) || value <= 0)
        throw new Error(`${arg} needs a positive integer`);
      o[arg === "--bombs" ? "bombs" : "samples"] = value;
    } else throw new Error(`unknown argument ${arg} (use --json, --bombs N, --samples N)`);
  }
  return o;
}

const log = (line: string) => process.stderr.write(`${line}\n`);

/** One request on a connection of its own; resolves with the status (0 when aborted). */
function call(
  base: URL,
  method: string,
  path: string,
  token: string,
  body?: string,
  signal?: AbortSignal,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: base.hostname,
        port: base.port,
        method,
        path,
        agent: false,
        signal,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body !== undefined ? { "content-type": "application/octet-stream" } : {}),
        },
      },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => {
          text += chunk.toString();
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on("error", () => resolve({ status: 0, body: "" }));
      },
    );
    req.on("error", () => resolve({ status: 0, body: "" }));
    req.end(body);
  });
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const dir = await mkdtemp(join(tmpdir(), "spillway-fairness-"));
  const tokens = join(dir, "tokens.json");
  await writeFile(tokens, JSON.stringify(TOKENS));
  const server = await startServerChild(join(dir, "home"), ["--tokens-file", tokens]);
  const base = new URL(server.url);
  try {
    const put = async (token: string, body: string) => {
      const res = await call(base, "POST", "/v1/outputs?session=bench&tool=t", token, body);
      if (res.status !== 201) throw new Error(`store failed: ${res.status} ${res.body}`);
      return (JSON.parse(res.body) as { output: { id: string } }).output.id;
    };
    const bombs = await put(TOKENS.a, `${"a".repeat(40)}!\n`);
    const trivial = await put(TOKENS.b, "alpha\nbeta\ngamma\n".repeat(100));
    const bGrep = async () => {
      const started = performance.now();
      const res = await call(
        base,
        "GET",
        `/v1/outputs/${trivial}/content?mode=grep&regex=true&pattern=g.mma&maxMatches=1`,
        TOKENS.b,
      );
      if (res.status !== 200) throw new Error(`B's grep answered ${res.status}: ${res.body}`);
      return performance.now() - started;
    };
    const aBombs = (signal?: AbortSignal) =>
      Array.from({ length: options.bombs }, () =>
        call(
          base,
          "GET",
          `/v1/outputs/${bombs}/content?mode=grep&regex=true&pattern=${BOMB}`,
          TOKENS.a,
          undefined,
          signal,
        ),
      );

    for (let i = 0; i < 5; i++) await bGrep(); // warm-up: worker threads, caches
    const floor: number[] = [];
    for (let i = 0; i < options.samples * 2; i++) floor.push(await bGrep());
    log(`floor: ${options.samples * 2} greps on the idle server`);

    const abandoned: number[] = [];
    for (let i = 0; i < options.samples; i++) {
      const controller = new AbortController();
      const pending = aBombs(controller.signal);
      await new Promise((resolve) => setTimeout(resolve, 100));
      controller.abort();
      await Promise.all(pending);
      abandoned.push(await bGrep());
      await new Promise((resolve) => setTimeout(resolve, 200)); // terminated workers settle
    }
    log(`abandoned: ${options.samples} rounds of ${options.bombs} abandoned catastrophic greps`);

    const waiting: number[] = [];
    const aStatuses: number[] = [];
    for (let i = 0; i < Math.max(3, Math.ceil(options.samples / 3)); i++) {
      const pending = aBombs();
      await new Promise((resolve) => setTimeout(resolve, 100));
      waiting.push(await bGrep());
      for (const res of await Promise.all(pending)) aStatuses.push(res.status);
    }
    log(`waiting: A's greps answered ${[...new Set(aStatuses)].join(", ")}`);

    const row = (name: string, values: number[]) => [
      name,
      String(values.length),
      `${ms(median(values))} ms`,
      `${ms(percentile(values, 95))} ms`,
      `${ms(Math.max(...values))} ms`,
      `${(median(values) / median(floor)).toFixed(1)}x`,
    ];
    console.log(
      table(
        `B's trivial regex grep while A has ${options.bombs} catastrophic greps in flight (real serve, 2 regex workers)`,
        ["case", "n", "p50", "p95", "max", "p50/floor"],
        [
          row("idle server (floor)", floor),
          row("A's greps abandoned", abandoned),
          row("A's greps waiting", waiting),
        ],
      ),
    );
    if (options.json)
      console.log(
        JSON.stringify({
          bench: "fairness",
          bombs: options.bombs,
          floorMs: { p50: median(floor), p95: percentile(floor, 95) },
          abandonedMs: {
            p50: median(abandoned),
            p95: percentile(abandoned, 95),
            max: Math.max(...abandoned),
          },
          waitingMs: {
            p50: median(waiting),
            p95: percentile(waiting, 95),
            max: Math.max(...waiting),
          },
          aStatuses: [...new Set(aStatuses)],
        }),
      );
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
