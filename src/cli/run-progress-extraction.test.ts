/** The run progress of an extraction: plain lines, a terminal, JSON lines. */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import {
  C,
  events,
  fakeStderr,
  opening,
  type RunEvent,
  S,
} from "../../test/helpers/run-progress-events.js";
import { Output } from "./output.js";
import { RunProgress } from "./run-progress.js";

/** Events of an extraction asked by tool call "b" of the root session (turn 3). */
const extractionStart = (strategy: string, chunks: number, requested = "auto"): RunEvent => ({
  type: "extraction.start",
  sessionId: S,
  outputId: "out_big",
  strategy,
  requested,
  chunks,
  toolCallId: "b",
  depth: 0,
});

const mapCall = (chunk: number, overrides: Partial<RunEvent> = {}): RunEvent =>
  ({
    type: "extraction.call",
    sessionId: S,
    outputId: "out_big",
    phase: "map",
    chunk,
    chunks: 10,
    model: "openai/gpt-4.1-mini",
    inputTokens: 1_000,
    outputTokens: 100,
    latencyMs: 1_500,
    requestBytes: 4_000,
    responsePreview: "…",
    cached: false,
    toolCallId: "b",
    depth: 0,
    ...overrides,
  }) as RunEvent;

const extractionEnd = (overrides: Record<string, unknown> = {}): RunEvent =>
  ({
    type: "extraction.end",
    sessionId: S,
    outputId: "out_big",
    strategy: "full-chunked",
    found: true,
    snippets: 3,
    unverified: 1,
    cached: false,
    durationMs: 4_200,
    toolCallId: "b",
    depth: 0,
    ...overrides,
  }) as RunEvent;

const extractTool = (type: "tool.start" | "tool.end"): RunEvent =>
  type === "tool.start"
    ? { type, sessionId: S, turn: 3, toolCallId: "b", toolName: "get_tool_output", depth: 0 }
    : {
        type,
        sessionId: S,
        turn: 3,
        toolCallId: "b",
        toolName: "get_tool_output",
        status: "ok",
        durationMs: 4_300,
        readOutputId: "out_big",
        depth: 0,
      };

describe("RunProgress: extraction as plain lines", () => {
  function linesOf(run: RunEvent[]): string[] {
    const { stream, text } = fakeStderr();
    const progress = new RunProgress(
      "lines",
      new Output(new PassThrough() as never, stream),
      stream,
    );
    for (const event of [...opening, ...run]) progress.handle(event);
    // Drop the session and model lines of the opening.
    return text().split("\n").slice(2, -1);
  }

  it("prints the start and the end, and a map call only when it was asked again", () => {
    expect(
      linesOf([
        extractTool("tool.start"),
        extractionStart("full-chunked", 10),
        mapCall(1),
        mapCall(2),
        mapCall(2, { latencyMs: 2_100 }),
        mapCall(3, { cached: true, inputTokens: 0, outputTokens: 0, latencyMs: 0 }),
        mapCall(4, { phase: "reduce", chunk: undefined } as Partial<RunEvent>),
        mapCall(4, { phase: "reduce", chunk: undefined } as Partial<RunEvent>),
        extractionEnd(),
        extractTool("tool.end"),
      ]),
    ).toEqual([
      "[turn 3/20] extract out_big strategy full-chunked (auto) · 10 chunks",
      "[turn 3/20] extract out_big chunk 2/10 asked again: answer 2 from openai/gpt-4.1-mini (the previous one was unusable) · 2.10 s",
      "[turn 3/20] extract out_big reduce step asked again: answer 2 from openai/gpt-4.1-mini (the previous one was unusable) · 1.50 s",
      "[turn 3/20] extract out_big full-chunked: found · 3 verified quotes (1 dropped) · 4.20 s",
      "[turn 3/20] tool get_tool_output ok 4.30 s",
    ]);
  });

  it("says when nothing was found, when the result was cached, and when it fell back", () => {
    expect(
      linesOf([
        extractionStart("full-chunked", 2, "full-chunked"),
        extractionEnd({ found: false, snippets: 0, unverified: 0, durationMs: 900 }),
        extractionEnd({ cached: true, snippets: 1, unverified: 0, durationMs: 2 }),
        extractionStart("read-grep", 1),
        extractionEnd({
          strategy: "truncate",
          fallbackFrom: "read-grep",
          reason:
            "The read-grep agent (session ses_rg) ended failed without a usable final report.",
          durationMs: 31_000,
        }),
        extractionStart("truncate", 1, "truncate"),
        extractionEnd({ strategy: "truncate", snippets: 0, unverified: 0, durationMs: 12 }),
      ]),
    ).toEqual([
      "[turn 3/20] extract out_big strategy full-chunked · 2 chunks",
      "[turn 3/20] extract out_big full-chunked: nothing relevant · 900 ms",
      "[turn 3/20] extract out_big full-chunked: found · 1 verified quote · cached",
      "[turn 3/20] extract out_big strategy read-grep (auto)",
      "[turn 3/20] extract out_big read-grep FELL BACK to truncate after 31.00 s: The read-grep agent (session ses_rg) ended failed without a usable final report.",
      "[turn 3/20] extract out_big strategy truncate",
      "[turn 3/20] extract out_big truncate: head and tail · 12 ms",
    ]);
  });

  it("indents the extraction of a sub-agent under its session id", () => {
    const { stream, text } = fakeStderr();
    const progress = new RunProgress(
      "lines",
      new Output(new PassThrough() as never, stream),
      stream,
    );
    progress.handle({
      type: "session.start",
      sessionId: C,
      parentSessionId: S,
      agent: "helper",
      models: ["openai/gpt-4.1"],
      maxTurns: 5,
      resumed: false,
      depth: 1,
    });
    progress.handle({
      type: "turn.start",
      sessionId: C,
      turn: 2,
      maxTurns: 5,
      final: false,
      depth: 1,
    });
    progress.handle({ ...extractionStart("full-chunked", 4), sessionId: C, depth: 1 } as RunEvent);
    expect(text().split("\n").at(-2)).toBe(
      "  [ses_child] [turn 2/5] extract out_big strategy full-chunked (auto) · 4 chunks",
    );
  });
});

describe("RunProgress: extraction on a terminal", () => {
  async function statusAfter(progress: RunProgress, text: () => string, run: RunEvent[]) {
    for (const event of run) progress.handle(event);
    await new Promise((done) => setImmediate(done));
    return (text().split("\r\x1b[2K").at(-1) ?? "").replace(/ · \d+s$/, " · …");
  }

  it("shows the chunks read, then the reduce step, in place of the tool's name", async () => {
    const { stream, text } = fakeStderr();
    const progress = new RunProgress("tty", new Output(new PassThrough() as never, stream), stream);
    expect(
      await statusAfter(progress, text, [
        ...events,
        {
          type: "tool.end",
          sessionId: S,
          turn: 3,
          toolCallId: "a",
          toolName: "fs__read_file",
          status: "ok",
          durationMs: 1200,
          outputId: "out_big",
          bytes: 20_000_000,
          shown: "handle",
          depth: 0,
        },
        extractionStart("full-chunked", 10),
      ]),
    ).toBe(
      "turn 3/20 · openai/gpt-4.1 · extracting out_big full-chunked 0/10 chunks · stored 20.0 MB · 12.3k tok in / 1.1k out · …",
    );
    expect(
      await statusAfter(progress, text, [
        mapCall(1),
        mapCall(4),
        mapCall(3),
        mapCall(4),
        { type: "tool.start", sessionId: S, turn: 3, toolCallId: "c", toolName: "shell", depth: 0 },
      ]),
    ).toBe(
      "turn 3/20 · openai/gpt-4.1 · extracting out_big full-chunked 3/10 chunks · running: shell · stored 20.0 MB · 16.3k tok in / 1.5k out · …",
    );
    // The chunk answered twice was asked again: a permanent line above the status line.
    expect(text()).toContain(
      "\r\x1b[2K[turn 3/20] extract out_big chunk 4/10 asked again: answer 2 from openai/gpt-4.1-mini (the previous one was unusable) · 1.50 s\n",
    );
    expect(
      await statusAfter(
        progress,
        text,
        [2, 5, 6, 7, 8, 9, 10].map((chunk) => mapCall(chunk)),
      ),
    ).toMatch(/ · extracting out_big full-chunked reducing · running: shell · /);
    // A successful end is no permanent line; the status line goes back to the tools.
    expect(await statusAfter(progress, text, [extractionEnd()])).toMatch(
      /^turn 3\/20 · openai\/gpt-4\.1 · running: get_tool_output, shell · /,
    );
    expect(text()).not.toContain("found · 3 verified quotes");
    await progress.stop();
  });

  it("shows the read-grep agent's turn, and a fallback as a permanent line", async () => {
    const { stream, text } = fakeStderr();
    const progress = new RunProgress("tty", new Output(new PassThrough() as never, stream), stream);
    expect(
      await statusAfter(progress, text, [
        ...opening,
        extractTool("tool.start"),
        extractionStart("read-grep", 1),
      ]),
    ).toBe(
      "turn 3/20 · openai/gpt-4.1 · extracting out_big read-grep agent · stored 0 B · 12.3k tok in / 1.1k out · …",
    );
    expect(
      await statusAfter(progress, text, [
        {
          type: "session.start",
          sessionId: "ses_rg",
          parentSessionId: S,
          agent: "read-grep",
          models: ["openai/gpt-4.1-mini"],
          maxTurns: 8,
          resumed: false,
          depth: 1,
        },
        { type: "turn.start", sessionId: "ses_rg", turn: 2, maxTurns: 8, final: false, depth: 1 },
        {
          type: "tool.start",
          sessionId: "ses_rg",
          turn: 2,
          toolCallId: "g",
          toolName: "Grep",
          depth: 1,
        },
      ]),
    ).toBe(
      "turn 3/20 · openai/gpt-4.1 · extracting out_big read-grep agent turn 2/8 · running: Grep · stored 0 B · 12.3k tok in / 1.1k out · …",
    );
    await statusAfter(progress, text, [
      {
        type: "session.end",
        sessionId: "ses_rg",
        status: "failed",
        report: null,
        error: "out of turns",
        usage: {} as never,
        depth: 1,
      },
      extractionEnd({
        strategy: "truncate",
        fallbackFrom: "read-grep",
        reason: "no usable final report",
        durationMs: 31_000,
      }),
    ]);
    expect(text()).toContain(
      "\r\x1b[2K[turn 3/20] extract out_big read-grep FELL BACK to truncate after 31.00 s: no usable final report\n",
    );
    expect(text().split("\r\x1b[2K").at(-1)).toMatch(
      /^turn 3\/20 · openai\/gpt-4\.1 · running: get_tool_output · /,
    );
    await progress.stop();
  });

  it("forgets an extraction whose tool call ended without extraction.end", async () => {
    const { stream, text } = fakeStderr();
    const progress = new RunProgress("tty", new Output(new PassThrough() as never, stream), stream);
    expect(
      await statusAfter(progress, text, [
        ...opening,
        extractTool("tool.start"),
        extractionStart("full-chunked", 10),
        { ...extractTool("tool.end"), status: "error", error: "aborted" } as RunEvent,
      ]),
    ).toMatch(/^turn 3\/20 · openai\/gpt-4\.1 · waiting for the model · /);
    await progress.stop();
  });
});

describe("RunProgress in JSON mode", () => {
  it("passes extraction events through as JSON lines", async () => {
    const stdout = new PassThrough();
    let written = "";
    stdout.on("data", (chunk: Buffer) => {
      written += chunk.toString("utf8");
    });
    const { stream, text } = fakeStderr();
    const progress = new RunProgress("json", new Output(stdout as never, stream), stream);
    const run = [extractionStart("full-chunked", 10), mapCall(1), extractionEnd()];
    for (const event of run) progress.handle(event);
    await progress.stop();
    expect(
      written
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line)),
    ).toEqual(run);
    expect(text()).toBe("");
  });
});
