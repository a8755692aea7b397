import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../agent/events.js";
import { Output } from "./output.js";
import { RunProgress } from "./run-progress.js";

/** A fake terminal stderr that records everything written to it. */
function fakeStderr(columns = 200) {
  const stream = new PassThrough() as PassThrough & { isTTY: boolean; columns: number };
  stream.isTTY = true;
  stream.columns = columns;
  let text = "";
  stream.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
  });
  return { stream: stream as unknown as NodeJS.WriteStream, text: () => text };
}

const S = "ses_root";
const C = "ses_child";

const events: (AgentEvent & { depth: number })[] = [
  {
    type: "session.start",
    sessionId: S,
    parentSessionId: null,
    agent: "triage",
    models: ["openai/gpt-4.1"],
    maxTurns: 20,
    resumed: false,
    depth: 0,
  },
  { type: "turn.start", sessionId: S, turn: 3, maxTurns: 20, final: false, depth: 0 },
  {
    type: "model.call",
    sessionId: S,
    turn: 3,
    model: "openai/gpt-4.1",
    inputTokens: 12_300,
    outputTokens: 1_100,
    costUsd: null,
    latencyMs: 900,
    toolCalls: 2,
    depth: 0,
  },
  {
    type: "tool.start",
    sessionId: S,
    turn: 3,
    toolCallId: "a",
    toolName: "fs__read_file",
    depth: 0,
  },
  {
    type: "tool.start",
    sessionId: S,
    turn: 3,
    toolCallId: "b",
    toolName: "get_tool_output",
    depth: 0,
  },
];

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
