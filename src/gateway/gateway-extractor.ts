/**
 * Which model `get_tool_output(mode="extract")` uses in a gateway session: the client's own
 * model through MCP sampling when the client declares it, else the configured extraction
 * model, else none (and `extract` is not offered).
 */
import { ExtractionEngine } from "../extraction/engine.js";
import type { Extractor } from "../extraction/extractor.js";
import type { ExtractionEvent } from "../extraction/run-context.js";
import { callModel } from "../providers/model-caller.js";
import type { OutputStore } from "../store/output-store.js";
import type { ExtractionCache } from "../store/sqlite-extraction-cache.js";
import type { GatewaySettings } from "./gateway-settings.js";
import { type SendSampling, samplingCallModel, samplingTarget } from "./sampling-model.js";

/** The model extraction will use, or why there is none. */
export type ExtractionSource =
  | { readonly kind: "sampling" }
  | { readonly kind: "model"; readonly refs: readonly string[] }
  | { readonly kind: "none"; readonly reason: string };

/** Decides the extraction source from the client's capabilities and the settings. */
export function extractionSource(
  settings: GatewaySettings,
  clientCapabilities: Record<string, unknown> | undefined,
): ExtractionSource {
  if (settings.sampling.enabled && clientCapabilities?.sampling !== undefined) {
    return { kind: "sampling" };
  }
  const models = settings.extraction.models;
  if (models && models.length > 0) return { kind: "model", refs: models.map((m) => m.ref) };
  const sampling = settings.sampling.enabled
    ? "the client did not declare the MCP sampling capability"
    : "sampling is turned off (--no-sampling)";
  return {
    kind: "none",
    reason:
      `No model is available for mode="extract": ${sampling}, and no extraction model is configured ` +
      "(--extraction-model <provider/model>, or extraction.models in the config file's defaults). " +
      'Read the output exactly with mode="grep", "slice", "page" or "json" instead.',
  };
}

/** Answers every extraction with the reason there is no model (the surface reports it). */
function unavailable(reason: string): Extractor {
  return {
    extract: async (request) => ({ strategy: request.strategy, text: reason, failed: true }),
  };
}

/**
 * The extractor of one call. With sampling, `send` carries the requests to the client (on
 * the stream of the call being answered); map calls run `sampling.concurrency` at once.
 */
export function gatewayExtractor(options: {
  readonly source: ExtractionSource;
  readonly settings: GatewaySettings;
  readonly outputs: OutputStore;
  readonly sessionId: string;
  readonly cache?: ExtractionCache;
  readonly send: SendSampling;
  readonly emit: (event: ExtractionEvent) => void;
}): Extractor {
  const { source, settings } = options;
  if (source.kind === "none") return unavailable(source.reason);
  const sampling = source.kind === "sampling";
  const extraction = sampling
    ? {
        ...settings.extraction,
        models: [samplingTarget(settings.sampling, settings.tokenizer)],
        concurrency: settings.sampling.concurrency,
      }
    : settings.extraction;
  return new ExtractionEngine({
    outputs: options.outputs,
    scope: { sessionId: options.sessionId },
    settings: extraction,
    servingTargets: () => extraction.models ?? [],
    callModel: sampling
      ? samplingCallModel(options.send, settings.sampling, settings.tokenizer)
      : (targets, request) => callModel(targets, request, { retry: { attempts: 1, backoffMs: 0 } }),
    ...(options.cache ? { cache: options.cache } : {}),
    onModelCall: () => {},
    emit: options.emit,
  });
}
