/** Events and a fake terminal for the run progress tests (src/cli/run-progress*.test.ts). */
import { PassThrough } from "node:stream";
import type { AgentEvent } from "../../src/agent/events.js";

/** An agent event as the run progress gets it: with its session's depth. */
export type RunEvent = AgentEvent & { depth: number };

/** A fake terminal stderr that records everything written to it. */
export function fakeStderr(columns = 200) {
  const stream = new PassThrough() as PassThrough & { isTTY: boolean; columns: number };
  stream.isTTY = true;
  stream.columns = columns;
  let text = "";
  stream.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
  });
  return { stream: stream as unknown as NodeJS.WriteStream, text: () => text };
}

/** The root session and a child session. */
export const S = "ses_root";
export const C = "ses_child";

/** A root session at turn 3 of 20 whose model asked for two tool calls, both started. */
export const events: RunEvent[] = [
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

/** The root session at turn 3 of 20, its model asked for one tool call. */
export const opening: RunEvent[] = events.slice(0, 3);
