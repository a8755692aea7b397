/**
 * `outputs demo`: the main job end to end. A large application log is stored exactly as an
 * agent's tool result would be, then read back by grep, slice, page and JSON outline (with
 * timings), and paged end to end to prove the pages reconstruct it byte for byte.
 */

import { createHash } from "node:crypto";
import { performance } from "node:perf_hooks";
import { clipText } from "../core/clip-text.js";
import { StoreCorruptError } from "../core/errors.js";
import { readPage } from "../retrieval/page.js";
import { readOutput } from "../retrieval/read-output.js";
import type { OutputRecord, OutputStore } from "../store/output-store.js";
import { type CliContext, OWNER_SCOPE, withStore } from "./context.js";
import {
  generateLog,
  generateOrdersResponse,
  INCIDENT_MESSAGE,
  type PlantedIncident,
} from "./demo-data.js";
import { EXIT_OK } from "./errors.js";
import {
  describeTokenMethod,
  fields,
  formatBytes,
  formatCount,
  formatDuration,
  provenanceLine,
  shellQuote,
} from "./format.js";

export const DEMO_SESSION = "demo";
const ORDERS = 2_000;
/** What the demo searches for: the planted message without its "(max=50)". */
const INCIDENT_GREP = INCIDENT_MESSAGE.replace(/ \(.*\)$/, "");
const FAILED_ORDERS_QUERY = '$.data.orders[?(@.status=="failed")].id';
const INDENT = "      ";

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

/** Demo output: printed step by step for people, collected into one document for --json. */
class Report {
  readonly summary: Record<string, unknown> = {};
  constructor(private readonly context: CliContext) {}

  async step(title: string, ms: number, lines: string[]): Promise<void> {
    if (this.context.json) return;
    await this.context.out.lines([
      `${title}  (${formatDuration(ms)})`,
      ...lines.map((l) => INDENT + l),
      "",
    ]);
  }

  async text(lines: string[]): Promise<void> {
    if (!this.context.json) await this.context.out.lines(lines);
  }
}

/** Pages from cursor 0 to the end, hashing the pages' UTF-8 bytes. */
async function pageEndToEnd(store: OutputStore, record: OutputRecord) {
  const output = await store.open(record.id, OWNER_SCOPE);
  try {
    const hash = createHash("sha256");
    let cursor: number | null = 0;
    let pages = 0;
    let bytes = 0;
    while (cursor !== null) {
      const page = await readPage(output, { cursor });
      const encoded = Buffer.from(page.text, "utf8");
      hash.update(encoded);
      bytes += encoded.byteLength;
      pages++;
      cursor = page.nextCursor;
    }
    return { pages, bytes, sha256: hash.digest("hex") };
  } finally {
    await output.close();
  }
}

/** The demo's steps, in order; each prints its result and adds it to the summary. */
class DemoSteps {
  private log!: OutputRecord;
  private incidentLine = 0;
  private sliceLines = { from: 1, to: 1 };
  private nextPageCursor = 0;
  private api!: OutputRecord;

  constructor(
    private readonly store: OutputStore,
    private readonly report: Report,
    private readonly sizeMb: number,
  ) {}

  async storeLog(): Promise<void> {
    const planted: PlantedIncident = { line: 0, text: "", requestId: "req_7f3c9a1e2b40" };
    const { value: log, ms } = await timed(() =>
      this.store.put(
        {
          sessionId: DEMO_SESSION,
          toolName: "demo__generate_log",
          toolArgs: JSON.stringify({ service: "checkout", size_mb: this.sizeMb }),
          toolCallId: "call_demo_log",
        },
        generateLog(this.sizeMb * 1_000_000, planted),
      ),
    );
    this.log = log;
    this.incidentLine = planted.line;
    this.report.summary.log = { record: log, ms, plantedLine: planted.line };
    const bytes = log.byteSize ?? 0;
    await this.report.step(`[1/6] store a ${this.sizeMb} MB application log as a tool result`, ms, [
      ...fields([
        ["id", log.id],
        ["tool", `${log.toolName} ${log.toolArgs} in session "${log.sessionId}"`],
        [
          "size",
          `${formatBytes(bytes)} (${formatCount(bytes)} bytes), ${formatCount(log.lineCount ?? 0)} lines`,
        ],
        [
          "tokens",
          `~${formatCount(log.tokenEstimate ?? 0)} (${describeTokenMethod(log.tokenMethod)})`,
        ],
        ["kind", log.kind ?? "-"],
        ["sha256", log.sha256 ?? "-"],
      ]),
    ]);
  }

  async grepIncident(): Promise<void> {
    const planted = this.incidentLine;
    const { value, ms } = await timed(() =>
      readOutput(this.store, this.log.id, OWNER_SCOPE, { mode: "grep", pattern: INCIDENT_GREP }),
    );
    this.report.summary.grep = { result: value, ms };
    const hit = value.matches[0];
    if (hit) this.incidentLine = hit.line;
    const count = value.matches.length;
    await this.report.step(`[2/6] grep "${INCIDENT_GREP}" in the stored bytes`, ms, [
      ...value.matches.map((m) => clipText(`${m.line}:${m.column}: ${m.text}`, 160)),
      `${count} matching line${count === 1 ? "" : "s"}` +
        (hit ? `, line ${formatCount(hit.line)} (planted at line ${formatCount(planted)})` : ""),
    ]);
  }

  async sliceAround(): Promise<void> {
    const from = Math.max(1, this.incidentLine - 3);
    const to = Math.min(this.log.lineCount ?? 1, this.incidentLine + 3);
    this.sliceLines = { from, to };
    const { value, ms } = await timed(() =>
      readOutput(this.store, this.log.id, OWNER_SCOPE, {
        mode: "slice",
        lineStart: from,
        lineEnd: to,
      }),
    );
    this.report.summary.slice = { result: value, ms };
    if (!value.found || value.encoding !== "utf-8") return;
    const texts = value.text.replace(/\n$/, "").split("\n");
    const width = String(to).length;
    await this.report.step(`[3/6] slice lines ${from}-${to} around it`, ms, [
      provenanceLine(value.provenance),
      ...texts.map((text, i) => clipText(`${String(from + i).padStart(width)}  ${text}`, 160)),
    ]);
  }

  async firstPage(): Promise<void> {
    const { value, ms } = await timed(() =>
      readOutput(this.store, this.log.id, OWNER_SCOPE, { mode: "page" }),
    );
    this.nextPageCursor = value.nextCursor ?? 0;
    this.report.summary.firstPage = {
      provenance: value.provenance,
      nextCursor: value.nextCursor,
      ms,
    };
    const lines = value.text.replace(/\n$/, "").split("\n");
    await this.report.step("[4/6] first page", ms, [
      `${formatCount(value.text.length)} chars, lines 1-${formatCount(lines.length)}; ` +
        `next cursor ${value.nextCursor ?? "none (last page)"}`,
      ...lines.slice(0, 3).map((text, i) => clipText(`${i + 1}  ${text}`, 160)),
      `…  (${formatCount(Math.max(0, lines.length - 3))} more lines on this page)`,
    ]);
  }

  async jsonResponse(): Promise<void> {
    const { value, ms } = await timed(async () => {
      const record = await this.store.put(
        {
          sessionId: DEMO_SESSION,
          toolName: "demo__http_get",
          toolArgs: JSON.stringify({ url: `https://api.example.test/v1/orders?limit=${ORDERS}` }),
          toolCallId: "call_demo_api",
        },
        generateOrdersResponse(ORDERS),
      );
      const read = (request: { query: string; maxResults: number } | { outline: true }) =>
        readOutput(this.store, record.id, OWNER_SCOPE, { mode: "json", ...request });
      const outline = await read({ outline: true });
      const failed = await read({ query: FAILED_ORDERS_QUERY, maxResults: 5 });
      return { record, outline, failed };
    });
    const { record, outline, failed } = value;
    this.api = record;
    this.report.summary.json = { record, outline, failedOrders: failed, ms };
    const failedLine =
      failed.kind === "query"
        ? `${FAILED_ORDERS_QUERY} -> ${failed.totalMatches} matches: ` +
          failed.matches.map((m) => JSON.stringify(m.value)).join(", ") +
          (failed.nextOffset !== null ? ", …" : "")
        : "";
    await this.report.step(
      `[5/6] store a ${formatBytes(record.byteSize ?? 0)} JSON API response, outline and query it`,
      ms,
      [
        `id ${record.id}, kind ${record.kind}, ~${formatCount(record.tokenEstimate ?? 0)} tokens`,
        ...(outline.kind === "outline" ? outline.outline.split("\n") : []),
        failedLine,
      ],
    );
  }

  async pageEndToEnd(): Promise<void> {
    const log = this.log;
    const { value, ms } = await timed(() => pageEndToEnd(this.store, log));
    const identical = value.sha256 === log.sha256 && value.bytes === log.byteSize;
    this.report.summary.verify = { ...value, recordSha256: log.sha256, identical, ms };
    await this.report.step("[6/6] page through the whole log and compare SHA-256", ms, [
      `${formatCount(value.pages)} pages, ${formatCount(value.bytes)} bytes`,
      ...fields([
        ["sha256 of the pages", value.sha256],
        ["sha256 of the record", log.sha256 ?? "-"],
      ]),
      identical
        ? "identical: paging reconstructs the stored output exactly"
        : "MISMATCH: the pages do not reconstruct the output",
    ]);
    if (!identical) {
      throw new StoreCorruptError(`Paging output "${log.id}" end to end did not reproduce it.`, {
        outputId: log.id,
        expectedSha256: log.sha256,
        actualSha256: value.sha256,
      });
    }
  }

  /** Commands the user can run next (with --home when it was given). */
  followUps(home: string): string[] {
    const cli = `spillway${home} outputs`;
    const { id } = this.log;
    const { from, to } = this.sliceLines;
    return [
      `${cli} list`,
      `${cli} show ${id}`,
      `${cli} grep ${id} ${shellQuote(INCIDENT_GREP)} -C 3`,
      `${cli} slice ${id} --lines ${from}:${to}`,
      `${cli} page ${id} --cursor ${this.nextPageCursor}`,
      `${cli} json ${this.api.id} ${shellQuote(FAILED_ORDERS_QUERY)}`,
      `${cli} export ${id} | sha256sum`,
    ];
  }
}

export async function runDemo(context: CliContext, sizeMb: number): Promise<number> {
  const report = new Report(context);
  await report.text([
    `spillway demo: a ${sizeMb} MB tool output stored whole and read back exactly`,
    `store: ${context.home}`,
    "",
  ]);
  await withStore(context, async (store) => {
    const steps = new DemoSteps(store, report, sizeMb);
    await steps.storeLog();
    await steps.grepIncident();
    await steps.sliceAround();
    await steps.firstPage();
    await steps.jsonResponse();
    await steps.pageEndToEnd();
    const commands = steps.followUps(
      context.explicitHome ? ` --home ${shellQuote(context.home)}` : "",
    );
    report.summary.next = commands;
    await report.text(["next, try:", ...commands.map((command) => `  ${command}`)]);
  });
  if (context.json) await context.out.json(report.summary);
  return EXIT_OK;
}
