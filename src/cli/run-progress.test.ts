/** The run progress on a terminal and as lines: the status line, clipping, async tools. */
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

describe("RunProgress on a terminal", () => {
  it("redraws one status line in place and prints notable events as permanent lines", async () => {
    const { stream, text } = fakeStderr();
    const progress = new RunProgress("tty", new Output(new PassThrough() as never, stream), stream);
    for (const event of events) progress.handle(event);
    await new Promise((done) => setImmediate(done));
    const status = text().split("\r\x1b[2K").at(-1);
    expect(status).toMatch(
      /^turn 3\/20 · openai\/gpt-4\.1 · running: fs__read_file, get_tool_output · stored 0 B · 12\.3k tok in \/ 1\.1k out · \d+s$/,
    );
    progress.handle({
      type: "tool.end",
      sessionId: S,
      turn: 3,
      toolCallId: "a",
      toolName: "fs__read_file",
      status: "ok",
      durationMs: 1200,
      outputId: "out_x",
      bytes: 20_000_000,
      shown: "handle",
      depth: 0,
    });
    progress.handle({
      type: "tool.end",
      sessionId: S,
      turn: 3,
      toolCallId: "b",
      toolName: "get_tool_output",
      status: "error",
      durationMs: 5,
      error: "OUTPUT_NOT_FOUND",
      depth: 0,
    });
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
    await new Promise((done) => setImmediate(done));
    const out = text();
    // The successful tool end only updates the status line; the error is a permanent line.
    expect(out).not.toContain("tool fs__read_file → out_x");
    expect(out).toContain(
      "\r\x1b[2K[turn 3/20] tool get_tool_output failed 5 ms: OUTPUT_NOT_FOUND\n",
    );
    expect(out).toContain(
      "\r\x1b[2K  [ses_child] sub-agent helper started · openai/gpt-4.1 · up to 5 turns\n",
    );
    expect(out.split("\r\x1b[2K").at(-1)).toMatch(
      /^turn 3\/20 · openai\/gpt-4\.1 · waiting for the model · stored 20\.0 MB · /,
    );
    await progress.stop();
    expect(text().endsWith("\r\x1b[2K")).toBe(true);
  });

  it("clips the status line to the terminal width", async () => {
    const { stream, text } = fakeStderr(40);
    const progress = new RunProgress("tty", new Output(new PassThrough() as never, stream), stream);
    for (const event of events) progress.handle(event);
    await new Promise((done) => setImmediate(done));
    expect(text().split("\r\x1b[2K").at(-1)).toHaveLength(39);
    await progress.stop();
  });
});

describe("RunProgress: async tools", () => {
  const slowEnd: RunEvent = {
    type: "tool.end",
    sessionId: S,
    turn: 3,
    toolCallId: "a",
    toolName: "fs__read_file",
    status: "ok",
    durationMs: 5_000,
    outputId: "out_bg",
    bytes: 0,
    background: true,
    depth: 0,
  };
  const wentAsync: RunEvent = {
    type: "tool.async",
    sessionId: S,
    toolCallId: "a",
    toolName: "fs__read_file",
    outputId: "out_bg",
    trigger: "time",
    depth: 0,
  };
  const done = (over: Partial<RunEvent>): RunEvent =>
    ({
      type: "tool.done",
      sessionId: S,
      toolCallId: "a",
      toolName: "fs__read_file",
      outputId: "out_bg",
      status: "ready",
      durationMs: 9_300,
      bytes: 45_000,
      depth: 0,
      ...over,
    }) as RunEvent;

  it("as lines: the hand-off to the background, then how it settled", () => {
    const { stream, text } = fakeStderr();
    const progress = new RunProgress(
      "lines",
      new Output(new PassThrough() as never, stream),
      stream,
    );
    for (const event of [...opening, wentAsync, slowEnd, done({})]) progress.handle(event);
    progress.handle(
      done({
        toolCallId: "b",
        status: "aborted",
        error: "aborted: the session ended before the tool finished",
        bytes: undefined,
      } as Partial<RunEvent>),
    );
    expect(text().split("\n").slice(2, -1)).toEqual([
      "[turn 3/20] tool fs__read_file → out_bg running in the background after 5.00 s",
      "[turn 3/20] tool fs__read_file (background) → out_bg 45.0 kB ready · 9.30 s",
      "[turn 3/20] tool fs__read_file (background) → out_bg aborted after 9.30 s: the session ended before the tool finished",
    ]);
  });

  it("on a terminal: background tools in the status line until they settle; failures are permanent lines", async () => {
    const { stream, text } = fakeStderr();
    const progress = new RunProgress("tty", new Output(new PassThrough() as never, stream), stream);
    for (const event of [...events, wentAsync, slowEnd]) progress.handle(event);
    await new Promise((r) => setImmediate(r));
    expect(text().split("\r\x1b[2K").at(-1)).toMatch(
      /· running: get_tool_output · background: fs__read_file · stored 0 B · /,
    );
    progress.handle(
      done({
        status: "failed",
        error: "disk quota exceeded",
        bytes: undefined,
      } as Partial<RunEvent>),
    );
    await new Promise((r) => setImmediate(r));
    expect(text()).toContain(
      "tool fs__read_file (background) → out_bg failed after 9.30 s: disk quota exceeded\n",
    );
    expect(text().split("\r\x1b[2K").at(-1)).not.toContain("background:");
  });
});
