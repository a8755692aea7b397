import { ExtractionEngine, type ExtractionServices } from "../../src/extraction/engine.js";
import type { ExtractionEvent } from "../../src/extraction/run-context.js";
import { DEFAULT_EXTRACTION, type ExtractionSettings } from "../../src/extraction/settings.js";
import { callModel, type ModelReply } from "../../src/providers/model-caller.js";
import type { ModelTarget } from "../../src/providers/models.js";
import type { OutputRecord } from "../../src/store/output-store.js";
import { openSqliteStores, type SpillwayStores } from "../../src/store/sqlite-history-store.js";
import {
  type Responder,
  type ScriptedModelServer,
  startScriptedModelServer,
} from "../../src/testing/index.js";
import { onCleanup, SESSION, tempDir } from "./temp-store.js";

export interface EngineFixture {
  readonly engine: ExtractionEngine;
  readonly server: ScriptedModelServer;
  readonly stores: SpillwayStores;
  readonly events: ExtractionEvent[];
  readonly replies: ModelReply[];
  store(text: string): Promise<OutputRecord>;
}

/** A target reaching the scripted server, with a small context window so outputs chunk. */
export function scriptedTarget(server: ScriptedModelServer, contextWindow: number): ModelTarget {
  return {
    ref: "openai-compatible/scripted/scripted-policy",
    provider: "openai-compatible",
    name: "scripted",
    model: "scripted-policy",
    baseURL: server.baseURL,
    contextWindow,
    maxOutputTokens: 500,
    tokenizer: "o200k_base",
  };
}

/** An extraction engine over a real store, calling the scripted model through the AI SDK. */
export async function engineFixture(
  respond: Responder,
  options: {
    contextWindow?: number;
    settings?: Partial<ExtractionSettings>;
    services?: Partial<ExtractionServices>;
    defaultDelayMs?: number;
  } = {},
): Promise<EngineFixture> {
  const server = await startScriptedModelServer({
    respond,
    ...(options.defaultDelayMs ? { defaultDelayMs: options.defaultDelayMs } : {}),
  });
  onCleanup(() => server.close());
  const stores = await openSqliteStores({ home: await tempDir("spillway-extract-") });
  onCleanup(() => stores.close());
  const target = scriptedTarget(server, options.contextWindow ?? 16_000);
  const events: ExtractionEvent[] = [];
  const replies: ModelReply[] = [];
  const engine = new ExtractionEngine({
    outputs: stores.outputs,
    scope: { sessionId: SESSION },
    settings: { ...DEFAULT_EXTRACTION, models: [target], ...options.settings },
    servingTargets: () => [target],
    callModel: (targets, request) =>
      callModel(targets, request, { retry: { attempts: 1, backoffMs: 0 } }),
    cache: stores.extractionCache,
    onModelCall: (reply) => replies.push(reply),
    emit: (event) => events.push(event),
    ...options.services,
  });
  return {
    engine,
    server,
    stores,
    events,
    replies,
    store: (text) =>
      stores.outputs.put(
        { sessionId: SESSION, toolName: "logs__read", toolArgs: '{"file":"app.log"}' },
        text,
      ),
  };
}
