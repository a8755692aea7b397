/**
 * bench:serve — `spillway serve` over real HTTP on this machine, each figure next to a floor
 * measured in the same run:
 *  - a 4 KB slice of a 1 GB output over HTTP (p50 target ≤ 5 ms), floors: the same slice as a
 *    library call, and the server's cheapest answer (GET /health);
 *  - grep over HTTP vs the same grep as a library call (target ≤ 1.3×);
 *  - 100 concurrent SSE subscribers to one session: every event reaches every subscriber;
 *  - 1,000 requests a second of small slices (open loop), p50/p99, floor: the same load on /health.
 *
 *   npm run build && npm run bench:serve [-- --size-mb 1024 --rps 1000 --seconds 5 --json]
 *
 * Tables go to stdout, progress to stderr; with --json the last stdout line is one JSON object.
 */
import { Agent } from "node:http";
import { performance } from "node:perf_hooks";
import { readOutput } from "../src/retrieval/index.js";
import { startServer } from "../src/server/serve.js";
import { openSqliteStores } from "../src/store/index.js";
import { readSse } from "../src/testing/sse-client.js";
import { fixed, median, ms, percentile, table, verdict } from "./report.js";
import { BENCH_SESSION, bigOutput, NEEDLE, startServerChild } from "./serve-fixture.js";
import { openLoop, pooledGet, sequential } from "./serve-load.js";

const TARGETS = { sliceP50Ms: 5, grepRatio: 1.3, sseLost: 0, loadRps: 1000 } as const;

interface Options {
  json: boolean;
  sizeMb: number;
  rps: number;
  seconds: number;
  subscribers: number;
  events: number;
  slices: number;
  greps: number;
}

function parseOptions(argv: readonly string[]): Options {
  const o: Options = {
    json: false,
    sizeMb: 1024,
    rps: 1000,
    seconds: 5,
    subscribers: 100,
    events: 2000,
    slices: 300,
    greps: 15,
  };
  const numbers: Record<string, keyof Options> = {
    "--size-mb": "sizeMb",
    "--rps": "rps",
    "--seconds": "seconds",
    "--subscribers": "subscribers",
    "--events": "events",
    "--slices": "slices",
    "--greps": "greps",
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--json") o.json = true;
    else if (arg in numbers) {
      const value = Number(argv[++i]);
      if (!Number.isFinite(value) || value <= 0) throw new Error(`${arg} needs a positive number`);
      (o as unknown as Record<string, number>)[numbers[arg]!] = value;
    } else
      throw new Error(`unknown argument ${arg} (use --json, ${Object.keys(numbers).join(", ")})`);
  }
  return o;
}

const log = (line: string) => process.stderr.write(`${line}\n`);
const pct = (values: number[], p: number) => percentile(values, p);

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const started = performance.now();
  const fixture = await bigOutput(options.sizeMb, log);
  log(`fixture: ${fixture.id}, ${fixture.bytes} bytes`);
  const server = await startServerChild(fixture.home);
  const stores = await openSqliteStores({ home: fixture.home });
  const scope = { sessionId: BENCH_SESSION };
  const base = `${server.url}/v1/outputs/${fixture.id}`;
  const chars = fixture.bytes; // ASCII fixture: characters = bytes
  let seed = 1;
  const offset = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return Math.floor((seed / 2 ** 31) * (chars - 5000));
  };
  try {
    // 1. A 4 KB slice: HTTP, library, and the HTTP floor, interleaved.
    log("slices…");
    const warm = async () =>
      void (await (await fetch(`${base}/content?mode=slice&start=0&length=4096`)).arrayBuffer());
    for (let i = 0; i < 20; i++) await warm();
    const httpSlice: number[] = [];
    const libSlice: number[] = [];
    const health: number[] = [];
    for (let i = 0; i < options.slices; i++) {
      const start = offset();
      httpSlice.push(
        ...(await sequential(1, async () => {
          const r = await fetch(`${base}/content?mode=slice&start=${start}&length=4096`);
          const body = (await r.json()) as { text: string };
          if (body.text.length !== 4096)
            throw new Error(`slice answered ${body.text.length} chars`);
        })),
      );
      libSlice.push(
        ...(await sequential(
          1,
          async () =>
            void (await readOutput(stores.outputs, fixture.id, scope, {
              mode: "slice",
              start,
              length: 4096,
            })),
        )),
      );
      health.push(
        ...(await sequential(
          1,
          async () => void (await (await fetch(`${server.url}/health`)).arrayBuffer()),
        )),
      );
    }

    // 2. grep for the needle (97% in): HTTP vs library, alternating.
    log("grep…");
    const httpGrep: number[] = [];
    const libGrep: number[] = [];
    // Both sides in this process, so the scheduler favours neither (on a busy machine a process
    // that slept while another worked runs faster next): HTTP to a server started here, over
    // real loopback sockets, against the same grep called directly.
    const local = await startServer({ port: 0, stores, log: () => {} });
    const localBase = `${local.url}/v1/outputs/${fixture.id}`;
    const grepHttp = async () => {
      const body = (await (
        await fetch(`${localBase}/content?mode=grep&pattern=${NEEDLE}`)
      ).json()) as {
        matches: unknown[];
      };
      if (body.matches.length !== 1) throw new Error("grep over HTTP missed the needle");
    };
    const grepLibrary = async () => {
      const result = await readOutput(stores.outputs, fixture.id, scope, {
        mode: "grep",
        pattern: NEEDLE,
      });
      if (result.matches.length !== 1) throw new Error("library grep missed the needle");
    };
    // One warm-up each (JIT, page cache), then pairs in alternating order.
    await grepHttp();
    await grepLibrary();
    for (let i = 0; i < options.greps; i++) {
      const [first, second] = i % 2 === 0 ? [grepHttp, grepLibrary] : [grepLibrary, grepHttp];
      const [a] = await sequential(1, first);
      const [b] = await sequential(1, second);
      httpGrep.push((i % 2 === 0 ? a : b)!);
      libGrep.push((i % 2 === 0 ? b : a)!);
    }
    await local.close();

    // 3. Load: small slices at a fixed rate, then the floor (/health) at the same rate.
    log(`load: ${options.rps} requests/s for ${options.seconds} s…`);
    // A client pool of 64 keep-alive connections, as a real client would hold.
    const agent = new Agent({ keepAlive: true, maxSockets: 64 });
    const get = pooledGet(agent);
    const sliceLoad = await openLoop(options.rps, options.seconds, () =>
      get(`${base}/content?mode=slice&start=${offset()}&length=256`),
    );
    const healthLoad = await openLoop(options.rps, options.seconds, () =>
      get(`${server.url}/health`),
    );
    agent.destroy();
    for (const [name, load] of [
      ["slices", sliceLoad],
      ["health", healthLoad],
    ] as const)
      if (load.firstError) log(`load ${name}: ${load.errors} errors, first: ${load.firstError}`);
    await server.stop();

    // 4. SSE fan-out: an in-process server, events published into its feed (the projection of
    // agent events is not in this figure), every subscriber must see every event in order.
    log(`SSE: ${options.subscribers} subscribers × ${options.events} events…`);
    const sse = await startServer({ port: 0, stores, log: () => {}, heartbeatMs: 1000 });
    const sessionId = "ses_benchsse";
    await stores.history
      .createSession({ id: sessionId, agentName: "bench", prompt: "sse", settings: {} })
      .catch(() => {});
    const delays: number[] = [];
    const received = await Promise.all(
      Array.from({ length: options.subscribers }, () =>
        readSse(`${sse.url}/v1/sessions/${sessionId}/events`, {
          until: (e) => e.event === "final",
          onEvent: (e) => {
            if (e.event === "tick")
              delays.push(Date.now() - (JSON.parse(e.data) as { at: number }).at);
          },
        }),
      ).concat([
        (async () => {
          await new Promise((r) => setTimeout(r, 500));
          for (let i = 1; i <= options.events; i++) {
            sse.deps.feed.publish(sessionId, {
              type: "tick",
              n: i,
              at: Date.now(),
              pad: "x".repeat(200),
            });
            if (i % 50 === 0) await new Promise((r) => setTimeout(r, 5));
          }
          sse.deps.feed.publish(sessionId, { type: "final", status: "completed" });
          return [];
        })(),
      ]),
    );
    await sse.close();
    const perSubscriber = received.slice(0, options.subscribers).map((events) => {
      const ticks = events
        .filter((e) => e.event === "tick")
        .map((e) => (JSON.parse(e.data) as { n: number }).n);
      const inOrder = ticks.every((n, i) => n === i + 1);
      return { got: ticks.length, inOrder };
    });
    const lost = perSubscriber.reduce((n, s) => n + (options.events - s.got), 0);
    const disordered = perSubscriber.filter((s) => !s.inOrder).length;

    const sliceP50 = median(httpSlice);
    // The median of the pair-by-pair ratios: robust to the machine's speed drifting between pairs.
    const grepRatio = median(httpGrep.map((h, i) => h / libGrep[i]!));
    const rows = {
      slice: table(
        `SLICE  4 KB at random offsets of a ${options.sizeMb} MB output (${options.slices} each, sequential, keep-alive)`,
        ["path", "p50", "p99", "target", "result"],
        [
          [
            "HTTP GET …/content?mode=slice",
            ms(sliceP50),
            ms(pct(httpSlice, 99)),
            `≤ ${TARGETS.sliceP50Ms} ms`,
            verdict(sliceP50, TARGETS.sliceP50Ms),
          ],
          ["floor: library readOutput", ms(median(libSlice)), ms(pct(libSlice, 99)), "-", "-"],
          ["floor: HTTP GET /health", ms(median(health)), ms(pct(health, 99)), "-", "-"],
        ],
      ),
      grep: table(
        `GREP  a literal 97% into ${options.sizeMb} MB (${options.greps} pairs, alternating, after a warm-up; both in one process; ratio: median of the pair ratios)`,
        ["path", "median", "ratio", "target", "result"],
        [
          [
            "HTTP …/content?mode=grep",
            ms(median(httpGrep)),
            `${fixed(grepRatio)}x`,
            `≤ ${TARGETS.grepRatio}x`,
            verdict(grepRatio, TARGETS.grepRatio),
          ],
          ["floor: library readOutput grep", ms(median(libGrep)), "1.00x", "-", "-"],
        ],
      ),
      load: table(
        `LOAD  open loop at ${options.rps} requests/s for ${options.seconds} s (server in its own process, 64 keep-alive connections; 2 cores shared with the load generator)`,
        ["requests", "achieved/s", "errors", "p50", "p99", "max"],
        [
          [
            `256-char slices`,
            fixed(sliceLoad.achievedRps, 0),
            String(sliceLoad.errors),
            ms(pct(sliceLoad.latencies, 50)),
            ms(pct(sliceLoad.latencies, 99)),
            ms(Math.max(...sliceLoad.latencies)),
          ],
          [
            `floor: /health`,
            fixed(healthLoad.achievedRps, 0),
            String(healthLoad.errors),
            ms(pct(healthLoad.latencies, 50)),
            ms(pct(healthLoad.latencies, 99)),
            ms(Math.max(...healthLoad.latencies)),
          ],
        ],
      ),
      sse: table(
        `SSE  ${options.subscribers} subscribers to one session, ${options.events} events published into the feed`,
        [
          "subscribers",
          "events each",
          "lost",
          "out of order",
          "delivery p50",
          "delivery p99",
          "result",
        ],
        [
          [
            String(options.subscribers),
            String(options.events),
            String(lost),
            String(disordered),
            ms(pct(delays, 50)),
            ms(pct(delays, 99)),
            lost === 0 && disordered === 0 ? "PASS" : "FAIL",
          ],
        ],
      ),
    };
    process.stdout.write(`${[rows.slice, rows.grep, rows.load, rows.sse].join("\n\n")}\n`);
    const totalMs = performance.now() - started;
    log(`done in ${(totalMs / 1000).toFixed(1)} s`);
    if (options.json) {
      process.stdout.write(
        `${JSON.stringify({
          bench: "serve",
          sizeMb: options.sizeMb,
          slice: {
            httpP50Ms: sliceP50,
            httpP99Ms: pct(httpSlice, 99),
            libraryP50Ms: median(libSlice),
            healthP50Ms: median(health),
            targetP50Ms: TARGETS.sliceP50Ms,
            pass: sliceP50 <= TARGETS.sliceP50Ms,
          },
          grep: {
            httpMs: median(httpGrep),
            libraryMs: median(libGrep),
            ratio: grepRatio,
            target: TARGETS.grepRatio,
            pass: grepRatio <= TARGETS.grepRatio,
          },
          load: {
            rps: options.rps,
            seconds: options.seconds,
            slices: {
              achievedRps: sliceLoad.achievedRps,
              errors: sliceLoad.errors,
              p50Ms: pct(sliceLoad.latencies, 50),
              p99Ms: pct(sliceLoad.latencies, 99),
            },
            healthFloor: {
              achievedRps: healthLoad.achievedRps,
              errors: healthLoad.errors,
              p50Ms: pct(healthLoad.latencies, 50),
              p99Ms: pct(healthLoad.latencies, 99),
            },
          },
          sse: {
            subscribers: options.subscribers,
            events: options.events,
            lost,
            outOfOrder: disordered,
            deliveryP50Ms: pct(delays, 50),
            deliveryP99Ms: pct(delays, 99),
            pass: lost === 0 && disordered === 0,
          },
          totalMs,
        })}\n`,
      );
    }
  } finally {
    if (server.child.exitCode === null) await server.stop();
    await stores.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench:serve failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
