/**
 * The live benchmark's kept replies (eval/live/reply-cache.ts): a request answered before, byte
 * for byte, is answered again from the file; any other request goes to the model. Checked on
 * the cache alone and through the harness against the scripted stand-in, counting the requests
 * the model server actually received.
 */
import { appendFile, readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { responderOf } from "../../eval/agents/conversation.js";
import { fileReader } from "../../eval/agents/file-reader.js";
import { openReplyCache, requestKey } from "../../eval/live/reply-cache.js";
import { runLive } from "../../eval/live/run.js";
import { taskOf } from "../../eval/tasks/draw.js";
import { appLog } from "../../eval/tasks/shapes/app-log.js";
import { csvShipments } from "../../eval/tasks/shapes/csv-shipments.js";
import type { LiveTask } from "../../eval/tasks/types.js";
import { Rng } from "../../src/core/rng.js";
import type { ModelReply, ModelRequest } from "../../src/providers/model-caller.js";
import type { ModelTarget } from "../../src/providers/models.js";
import { type ScriptedModelServer, startScriptedModelServer } from "../../src/testing/index.js";
import { tempDir } from "../helpers/temp-store.js";

const TARGET = {
  ref: "local/some-model",
  provider: "local",
  model: "some-model",
  contextWindow: 8192,
  maxOutputTokens: 512,
  tokenizer: "o200k_base",
} as ModelTarget;

const request = (question: string): ModelRequest => ({
  system: "You answer questions.",
  messages: [{ role: "user", content: question }],
  tools: [],
  toolChoice: "required",
});

const replyOf = (text: string, latencyMs = 1500): ModelReply => ({
  target: TARGET,
  text,
  toolCalls: [],
  usage: { inputTokens: 10, outputTokens: 2 },
  finishReason: "stop",
  latencyMs,
  attempts: [],
});

describe("the reply cache", () => {
  it("keys a request by everything the model reads, and nothing else", () => {
    const base = request("Which order?");
    expect(requestKey([TARGET], base)).toBe(requestKey([TARGET], { ...base }));
    // An abort signal is not something the model reads.
    expect(requestKey([TARGET], { ...base, signal: new AbortController().signal })).toBe(
      requestKey([TARGET], base),
    );
    for (const other of [
      request("Which order was it?"),
      { ...base, system: "You answer questions briefly." },
      { ...base, toolChoice: "auto" as const },
      { ...base, maxOutputTokens: 64 },
      { ...base, tools: [{ name: "grep", description: "grep", inputSchema: { type: "object" } }] },
    ])
      expect(requestKey([TARGET], other)).not.toBe(requestKey([TARGET], base));
    expect(requestKey([{ ...TARGET, contextWindow: 4096 }], base)).not.toBe(
      requestKey([TARGET], base),
    );
  });

  it("computes a request once, gives the kept reply again, and keeps it across runs", async () => {
    const file = join(await tempDir("spillway-replies-"), "replies.jsonl");
    let computed = 0;
    const compute = (text: string) => async () => {
      computed += 1;
      return replyOf(text);
    };
    const first = await openReplyCache(file);
    expect((await first.reply([TARGET], request("a"), compute("A"))).text).toBe("A");
    expect((await first.reply([TARGET], request("a"), compute("other"))).text).toBe("A");
    expect((await first.reply([TARGET], request("b"), compute("B"))).text).toBe("B");
    expect(computed).toBe(2);
    expect(first.counts).toEqual({ computed: 2, replayed: 1, replayedMs: 1500 });
    // Another run of the same file: both requests are answered from it.
    const again = await openReplyCache(file);
    expect((await again.reply([TARGET], request("b"), compute("other"))).text).toBe("B");
    expect(computed).toBe(2);
    // With replay off, every request is computed again, and the newer reply kept.
    const fresh = await openReplyCache(file, { replay: false });
    expect((await fresh.reply([TARGET], request("a"), compute("A2"))).text).toBe("A2");
    expect(computed).toBe(3);
    expect((await openReplyCache(file)).counts).toEqual({
      computed: 0,
      replayed: 0,
      replayedMs: 0,
    });
    expect(
      (await (await openReplyCache(file)).reply([TARGET], request("a"), compute("x"))).text,
    ).toBe("A2");
  });

  it("reads what a run beside it appended when it misses, and never half a line", async () => {
    const file = join(await tempDir("spillway-replies-"), "replies.jsonl");
    const left = await openReplyCache(file);
    const right = await openReplyCache(file);
    await left.reply([TARGET], request("a"), async () => replyOf("A"));
    // Half a line being written by a third run: skipped until it is whole.
    const key = requestKey([TARGET], request("c"));
    const line = JSON.stringify({ key, reply: replyOf("C") });
    await appendFile(file, line.slice(0, 20));
    let computed = 0;
    expect((await right.reply([TARGET], request("a"), async () => replyOf("late"))).text).toBe("A");
    expect(
      (
        await right.reply([TARGET], request("c"), async () => {
          computed += 1;
          return replyOf("C computed");
        })
      ).text,
    ).toBe("C computed");
    expect(computed).toBe(1);
    expect(right.counts.replayed).toBe(1);
    expect(await readFile(file, "utf8")).toContain('"text":"A"');
  });

  it("skips a line a killed run cut short and starts the next line whole", async () => {
    const file = join(await tempDir("spillway-replies-"), "replies.jsonl");
    const first = await openReplyCache(file);
    await first.reply([TARGET], request("a"), async () => replyOf("A"));
    // A run killed while writing: half a line, no newline.
    const cut = JSON.stringify({ key: requestKey([TARGET], request("b")), reply: replyOf("B") });
    await appendFile(file, cut.slice(0, 30));
    const next = await openReplyCache(file);
    let computed = 0;
    const b = await next.reply([TARGET], request("b"), async () => {
      computed += 1;
      return replyOf("B again");
    });
    expect(b.text).toBe("B again");
    expect(computed).toBe(1);
    // The file reads whole again: both replies are there, the cut line skipped.
    const last = await openReplyCache(file);
    expect((await last.reply([TARGET], request("a"), async () => replyOf("x"))).text).toBe("A");
    expect((await last.reply([TARGET], request("b"), async () => replyOf("x"))).text).toBe(
      "B again",
    );
    expect(last.counts.replayed).toBe(2);
  });
});

describe("eval:live with kept replies", () => {
  let server: ScriptedModelServer;
  beforeAll(async () => {
    server = await startScriptedModelServer({ respond: responderOf(fileReader) });
  });
  afterAll(() => server.close());

  const MODEL = "openai-compatible/standin/scripted-reader";
  const configText = () =>
    JSON.stringify({
      providers: { "openai-compatible": { standin: { baseURL: server.baseURL } } },
      models: { [MODEL]: { contextWindow: 8192, maxOutputTokens: 512 } },
    });
  const tasks = (seed: number): LiveTask[] =>
    [appLog, csvShipments].map((shape, index) => {
      const file = shape.generate(new Rng(seed + index), 60_000);
      const spec = file.questions.find((q) => q.kind === "lookup")!;
      return taskOf(seed, index, shape.name, file, spec, 0);
    });

  it("plays a task again without the model where nothing changed, and with it where a behaviour did", async () => {
    const work = await tempDir("spillway-live-work-");
    const play = async (options: { ablate?: string[]; replay?: boolean }) =>
      runLive({
        model: MODEL,
        seed: 41,
        count: 2,
        tasks: tasks(41),
        policies: ["spillway"],
        out: await tempDir("spillway-live-out-"),
        workDir: work,
        configText: configText(),
        ...options,
      });
    const first = await play({});
    const asked = server.requests.length;
    expect(asked).toBeGreaterThan(0);
    expect(first.episodes.every((e) => e.replayedRequests === undefined)).toBe(true);

    // The same tasks, the same product: every request is one the model answered.
    const second = await play({});
    expect(server.requests.length).toBe(asked);
    for (const [i, e] of second.episodes.entries()) {
      const before = first.episodes[i]!;
      expect(e.replayedRequests, e.taskId).toBe(e.requests);
      expect(e.report).toBe(before.report);
      expect(e.transcript).toEqual(before.transcript);
      // The task's time counts the model's seconds for the replies it was given again.
      expect(e.seconds).toBeGreaterThanOrEqual(e.modelSeconds ?? 0);
    }

    // A behaviour off changes what the model is shown after the first result: the first
    // request is the one answered before, the next ones go to the model.
    const ablated = await play({ ablate: ["taskSearch"] });
    expect(server.requests.length).toBeGreaterThan(asked);
    for (const e of ablated.episodes) {
      expect(e.replayedRequests, e.taskId).toBeGreaterThanOrEqual(1);
      expect(e.replayedRequests, e.taskId).toBeLessThan(e.requests);
    }

    // With replay off, the model answers every request again.
    const before = server.requests.length;
    const fresh = await play({ replay: false });
    expect(server.requests.length - before).toBe(
      fresh.episodes.reduce((sum, e) => sum + e.requests, 0),
    );
    expect(fresh.episodes.every((e) => e.replayedRequests === undefined)).toBe(true);
  });
});
