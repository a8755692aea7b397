import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { closeSpillwayStores } from "../../src/ai/default-store.js";
import { type Responder, startScriptedModelServer } from "../../src/testing/index.js";
import { onCleanup } from "./temp-store.js";

/**
 * A scripted OpenAI-compatible server over HTTP and an AI SDK model on it, both closed after
 * the test (with the SQLite stores spillway/ai opened).
 */
export async function scriptedAiModel(respond: Responder) {
  const server = await startScriptedModelServer({ respond });
  onCleanup(async () => {
    await server.close();
    await closeSpillwayStores();
  });
  const provider = createOpenAICompatible({
    name: "scripted",
    baseURL: server.baseURL,
    apiKey: "none",
  });
  return { server, model: provider(server.modelId) };
}
