/**
 * The peers' live loop plays by spillway's rules for the same model: with requireToolCalls
 * (spillway's textReplies: none, the local default) every request asks for a tool call, and the
 * last step, told so, offers only the report and requires it. Checked on the requests a
 * scripted server received.
 */
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { afterEach, describe, expect, it } from "vitest";
import { FINAL_REPORT_SPEC, type PolicyEnv } from "../../eval/drive.js";
import { LAST_STEP_NOTE, liveLoop } from "../../eval/live-loop.js";
import {
  type ScriptedModelServer,
  startScriptedModelServer,
  textOf,
  toolCall,
  toolNames,
} from "../../src/testing/index.js";

const env: PolicyEnv = {
  tools: [],
  fetch: async () => "the output",
  run: async () => "",
};

let server: ScriptedModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function play(requireToolCalls: boolean) {
  // Blind: fetches, then fetches again until the last step, then reports what it was shown.
  server = await startScriptedModelServer({
    respond: (request) =>
      toolNames(request).includes("data__fetch")
        ? toolCall("data__fetch", { output: "doc-1" })
        : toolCall(FINAL_REPORT_SPEC.name, { report: "seen: the output" }),
  });
  const model = createOpenAICompatible({
    name: "scripted",
    baseURL: server.baseURL,
    apiKey: "test",
  }).chatModel("scripted");
  const result = await liveLoop(model, env, { prompt: "go", maxTurns: 3, requireToolCalls });
  return { result, requests: server.requests };
}

describe("the peers' live loop", () => {
  it("requires a tool call in every request with requireToolCalls, and the report in the last", async () => {
    const { result, requests } = await play(true);
    expect(result.report).toBe("seen: the output");
    expect(requests).toHaveLength(3);
    const byName = { type: "function", function: { name: FINAL_REPORT_SPEC.name } };
    expect(requests.map((r) => r.tool_choice)).toEqual(["required", "required", byName]);
    const last = requests[2]!;
    // The same tools as before (the prompt's prefix holds); the report required by name.
    expect(toolNames(last)).toEqual(toolNames(requests[1]!));
    expect(textOf(last.messages.at(-1)!)).toBe(LAST_STEP_NOTE);
  });

  it("without it, only the last request requires the report", async () => {
    const { requests } = await play(false);
    expect(requests.map((r) => r.tool_choice)).toEqual([
      "auto",
      "auto",
      { type: "function", function: { name: FINAL_REPORT_SPEC.name } },
    ]);
  });
});
