/**
 * The long session of bench:session: runAgent for real (SQLite store, the test MCP server over
 * stdio, compaction on), driven by an in-process scripted model (a stand-in, not a real
 * model: it reads only the request it is sent, and answers with a filler tool call each turn,
 * a grep of the last handle every seventh turn, and a short summary when asked to compact).
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ModelMessage } from "ai";
import { SUMMARIZER_PREAMBLE } from "../src/agent/compaction-prompt.js";
import type { AgentEvent } from "../src/agent/events.js";
import { runAgent } from "../src/agent/run-agent.js";
import type { ModelReply, ModelRequest, ModelToolCall } from "../src/providers/model-caller.js";
import type { ModelTarget } from "../src/providers/models.js";
import { openSqliteStores, type SpillwayStores } from "../src/store/sqlite-history-store.js";
import { testMcpServerCommand } from "../src/testing/mcp-test-server-command.js";

/** Output sizes of the filler calls, in bytes, in turn: the largest is shown by handle. */
export const SIZES = [300, 1_200, 4_000, 9_000, 30_000];
const KINDS = ["text", "log", "json", "csv"];

function textOf(message: ModelMessage | undefined): string {
  if (!message) return "";
  if (typeof message.content === "string") return message.content;
  return message.content
    .map((part) => {
      if (part.type === "text") return part.text;
      if (part.type === "tool-result" && part.output.type === "text") return part.output.value;
      return "";
    })
    .join("");
}

function reply(target: ModelTarget, text: string, calls: ModelToolCall[]): ModelReply {
  return {
    target,
    text,
    toolCalls: calls,
    usage: { inputTokens: 0, outputTokens: 0 },
    finishReason: calls.length > 0 ? "tool-calls" : "stop",
    latencyMs: 0,
    attempts: [{ ref: target.ref, latencyMs: 0 }],
  };
}

function call(id: string, toolName: string, args: Record<string, unknown>): ModelToolCall {
  return { toolCallId: id, toolName, argsText: JSON.stringify(args), args };
}

/** The scripted stand-in: blind, it sees only the request. */
export function scriptedModel(turns: number) {
  let calls = 0;
  let agentTurns = 0;
  return async (targets: readonly ModelTarget[], request: ModelRequest): Promise<ModelReply> => {
    const target = targets[0]!;
    calls++;
    if (request.system.startsWith(SUMMARIZER_PREAMBLE)) {
      const turnsSeen = [...textOf(request.messages[0]).matchAll(/^\[turn (\d+)\]/gm)].map(Number);
      return reply(
        target,
        `Scripted summary: the agent generated outputs (${turnsSeen.length} lines summarized).`,
        [],
      );
    }
    // The agent's own count of its turns: spillway's notice names no turn.
    const turn = ++agentTurns;
    const id = `call_${calls}`;
    if (turn >= turns)
      return reply(target, "", [
        call(id, "agent__final_report", { report: `done after ${turn} turns` }),
      ]);
    if (turn % 7 === 0) {
      const handles = request.messages
        .slice(-8)
        .flatMap((m) =>
          [...textOf(m).matchAll(/stored whole as (out_[0-9a-z]{26})/g)].map((x) => x[1]),
        );
      const handle = handles[handles.length - 1];
      if (handle)
        return reply(target, "", [
          call(id, "get_tool_output", {
            id: handle,
            mode: "grep",
            pattern: "ERROR",
            max_matches: 5,
          }),
        ]);
    }
    return reply(target, `Turn ${turn}: generating more.`, [
      call(id, "test__generate_output", {
        bytes: SIZES[turn % SIZES.length],
        kind: KINDS[turn % KINDS.length],
        seed: turn,
      }),
    ]);
  };
}

export interface SessionRun {
  readonly stores: SpillwayStores;
  readonly sessionId: string;
  readonly status: string;
  readonly turns: number;
  readonly wallMs: number;
  readonly events: AgentEvent[];
}

/** Runs one session of `turns` turns under a `contextWindow`-token window. */
export async function runLongSession(turns: number, contextWindow: number): Promise<SessionRun> {
  const home = await mkdtemp(join(tmpdir(), "spillway-bench-session-"));
  const stores = await openSqliteStores({ home });
  const server = testMcpServerCommand();
  const events: AgentEvent[] = [];
  const started = performance.now();
  const result = await runAgent({
    agent: {
      path: join(home, "bench.md"),
      name: "bench-session",
      systemPrompt: "You generate outputs and read some of them, turn after turn.",
      frontmatter: {},
    },
    prompt: `Generate outputs for ${turns} turns, then report.`,
    model: "ollama/bench-scripted",
    settings: { contextWindow, maxTurns: turns + 5 },
    mcpServers: { test: { command: server.command, args: [...server.args] } },
    stores,
    callModel: scriptedModel(turns),
    onEvent: (event) => {
      events.push(event);
      if (event.type === "turn.start" && event.turn % 50 === 0)
        process.stderr.write(`turn ${event.turn}\n`);
    },
  });
  return {
    stores,
    sessionId: result.sessionId,
    status: result.status,
    turns: result.turns,
    wallMs: performance.now() - started,
    events,
  };
}
