/**
 * The peers' agent loop (eval/live/peer-loop.ts) with a mock model: a peer's context management
 * is given the tokens a request may hold, the window less the reply's allowance, so a product
 * that compacts at a share of its configured window never sends a request the server refuses.
 */
import type { LanguageModelV3GenerateResult } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import type { FileServer } from "../../eval/live/file-server.js";
import { FINAL_REPORT, peerLoop, type WindowState } from "../../eval/live/peer-loop.js";

const reporting: LanguageModelV3GenerateResult = {
  content: [
    {
      type: "tool-call",
      toolCallId: "c1",
      toolName: FINAL_REPORT,
      input: JSON.stringify({ report: "RN-17337" }),
    },
  ],
  finishReason: { unified: "tool-calls", raw: "tool_calls" },
  usage: {
    inputTokens: { total: 500, noCache: 500, cacheRead: 0, cacheWrite: undefined },
    outputTokens: { total: 9, text: 9, reasoning: undefined },
  },
  warnings: [],
};

const files: FileServer = {
  description: "Reads a file.",
  inputSchema: { type: "object", properties: { path: { type: "string" } } },
  call: async () => "text",
  close: async () => {},
};

describe("peer loop", () => {
  it("gives the peer's context management the window less the reply's allowance", async () => {
    const seen: WindowState[] = [];
    const played = await peerLoop(
      new MockLanguageModelV3({ doGenerate: async () => reporting }),
      {
        name: "probe",
        tools: [],
        view: async (text) => text,
        run: async () => "",
        manage: async (messages, state) => {
          seen.push(state);
          return messages;
        },
      },
      files,
      {
        system: "Answer the question.",
        prompt: "Which id?",
        maxTurns: 3,
        window: 8_192,
        maxOutputTokens: 1_024,
        requireToolCalls: true,
        countText: (text) => Math.ceil(text.length / 4),
      },
    );
    expect(played.report).toBe("RN-17337");
    expect(seen.map((state) => state.window)).toEqual([7_168]);
  });
});
