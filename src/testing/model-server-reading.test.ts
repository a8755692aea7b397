/**
 * The scripted server answers the runtime's focused readings apart from the scenario it plays:
 * a scenario scripts the agent, and a reading must neither take one of its replies nor be seen
 * by a blind scripted agent.
 */
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { APICallError, generateText } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { FOCUSED_READING_SYSTEM } from "../surfaces/focused-reading.js";
import {
  type ScriptedModelServer,
  type ScriptedModelServerOptions,
  startScriptedModelServer,
} from "./model-server.js";
import { finalText } from "./policy-helpers.js";

const servers: ScriptedModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function setup(options: ScriptedModelServerOptions) {
  const server = await startScriptedModelServer(options);
  servers.push(server);
  const provider = createOpenAICompatible({
    name: "scripted",
    baseURL: server.baseURL,
    apiKey: "t",
  });
  const ask = (system: string) =>
    generateText({ model: provider(server.modelId), system, prompt: "Task: x", maxRetries: 0 });
  return { server, ask };
}

describe("focused readings on the scripted server", () => {
  it("declines them by default and keeps them out of the scenario and its requests", async () => {
    const { server, ask } = await setup({ scenario: [finalText("the agent's reply")] });
    expect((await ask(FOCUSED_READING_SYSTEM)).text).toBe("NONE");
    expect((await ask("You are an agent.")).text).toBe("the agent's reply");
    expect(server.requests).toHaveLength(1);
    expect(server.readingRequests).toHaveLength(1);
    expect(server.failures).toEqual([]);
  });

  it("answers them with the reading policy, counted apart, and names a policy that throws", async () => {
    const seen: number[] = [];
    const { server, ask } = await setup({
      respond: () => finalText("agent"),
      reading: (_request, { callIndex }) => {
        seen.push(callIndex);
        if (callIndex === 1) throw new Error("no such line");
        return { text: "LINE: 3\nVALUE: E42" };
      },
    });
    expect((await ask("You are an agent.")).text).toBe("agent");
    expect((await ask(FOCUSED_READING_SYSTEM)).text).toBe("LINE: 3\nVALUE: E42");
    await expect(ask(FOCUSED_READING_SYSTEM)).rejects.toBeInstanceOf(APICallError);
    expect(seen).toEqual([0, 1]);
    expect(server.failures[0]).toMatchObject({
      callIndex: 1,
      code: "responder_failed",
      message: expect.stringContaining("the reading policy threw on reading #1: no such line"),
    });
  });
});
