import { ExtractionEngine } from "../extraction/engine.js";
import type { ReadGrepAgentRequest, ReadGrepAgentResult } from "../extraction/read-grep.js";
import { DEFAULT_EXTRACTION, type ExtractionSettings } from "../extraction/settings.js";
import { callModel, type ModelReply, type ModelRequest } from "../providers/model-caller.js";
import type { ModelTarget } from "../providers/models.js";
import type { SpillwayStores } from "../store/sqlite-history-store.js";
import { createReadGrepSurface } from "../surfaces/read-grep-surface.js";
import type { Accounting } from "./accounting.js";
import type { AgentEvent } from "./events.js";
import { inheritedOptions } from "./inherited-options.js";
import type { RunPlan } from "./run-settings.js";
import type { RunAgent, RunAgentOptions } from "./run-types.js";
import type { SessionState } from "./session-context.js";

export interface SessionExtractionOptions {
  readonly sessionId: string;
  readonly depth: number;
  readonly plan: RunPlan;
  readonly stores: SpillwayStores;
  readonly state: SessionState;
  readonly accounting: Accounting;
  readonly emit: (event: AgentEvent) => void;
  readonly signal: AbortSignal;
  /** The run's own options (env, cwd, events, model override) passed on to the read-grep agent. */
  readonly options: RunAgentOptions;
  /** runAgent itself: the read-grep agent runs in the same runtime, as a linked session. */
  readonly runAgent: RunAgent;
}

/** The session's models with the one that served the last turn first (extraction's default). */
function servingFirst(models: readonly ModelTarget[], serving: string | null): ModelTarget[] {
  const first = models.find((m) => m.ref === serving);
  return first ? [first, ...models.filter((m) => m !== first)] : [...models];
}

/**
 * The extraction engine of a session: its model calls and its read-grep agent's whole run
 * count in the session's totals (with the children, like a sub-agent), and its events go to
 * the session's trace under the tool call that asked.
 */
export function sessionExtractor(args: SessionExtractionOptions): ExtractionEngine {
  const { sessionId, plan, stores, options } = args;
  const settings: ExtractionSettings = plan.extraction ?? { ...DEFAULT_EXTRACTION, models: null };
  const model = (targets: readonly ModelTarget[], request: ModelRequest): Promise<ModelReply> =>
    options.callModel
      ? options.callModel(targets, request)
      : // One attempt per model here: the extraction call itself retries (`extraction.retries`, default 2).
        callModel(targets, request, {
          retry: { attempts: 1, backoffMs: 0 },
          ...(options.env ? { env: options.env } : {}),
        });
  const readGrep = async (request: ReadGrepAgentRequest): Promise<ReadGrepAgentResult> => {
    const child = await args.runAgent({
      agent: {
        path: "(read-grep)",
        name: "read-grep",
        systemPrompt: request.systemPrompt,
        frontmatter: {},
      },
      prompt: request.task,
      model: request.models,
      settings: { maxTurns: request.maxTurns },
      stores,
      surface: createReadGrepSurface(request.handle, { sessionId }),
      maxToolCallsPerTurn: request.maxToolCallsPerTurn,
      extraction: false,
      signal: request.signal ?? args.signal,
      parent: {
        sessionId,
        toolCallId: request.toolCallId ?? "(extraction)",
        depth: args.depth + 1,
      },
      ...inheritedOptions(options),
    });
    args.accounting.addChild(child.usage);
    return {
      sessionId: child.sessionId,
      status: child.status,
      report: child.report,
      error: child.error,
    };
  };
  return new ExtractionEngine({
    outputs: stores.outputs,
    scope: { sessionId },
    settings,
    servingTargets: () => servingFirst(plan.settings.models, args.state.servingModel),
    callModel: model,
    cache: stores.extractionCache,
    readGrep,
    onModelCall: (reply) =>
      args.accounting.addChildModelCall(
        reply.target,
        reply.usage.inputTokens,
        reply.usage.outputTokens,
      ),
    emit: (event) => args.emit({ ...event, sessionId }),
  });
}
