/**
 * spillway/agent: the agent runtime's parts, for programs that build on it: agent files and
 * config, settings resolution, the model-facing surfaces, and the model request types a
 * custom `callModel` receives.
 *
 * @example
 * import { loadAgentFile, runAgent } from "spillway/agent";
 *
 * const agent = await loadAgentFile("agents/triage.md");
 * const result = await runAgent({ agent, prompt: "Why did checkout fail?" });
 */

export {
  type AgentDefinition,
  type CliSettings,
  findConfigFile,
  loadAgentFile,
  loadConfig,
  loadConfigFile,
  type McpServerSpec,
  parseModelRef,
  type ResolvedSettings,
  resolveSettings,
} from "../config/index.js";
export type { ToolDefinition } from "../core/tool-definition.js";
export type { Extractor } from "../extraction/extractor.js";
export type {
  ModelReply,
  ModelRequest,
  ModelToolCall,
} from "../providers/model-caller.js";
export type { ModelTarget } from "../providers/models.js";
export {
  createSurface,
  SURFACE_NAMES,
  type Surface,
  type SurfaceName,
} from "../surfaces/index.js";
export type { CompactionTotals, UsageReport, UsageTotals } from "./accounting.js";
export type { ContextLevel, ContextLimits, ContextUsage } from "./context-usage.js";
export type { AgentEvent, AgentEventListener } from "./events.js";
export { asProjection, type InvariantName } from "./invariants.js";
export { runAgent } from "./run-agent.js";
export type { AgentRunResult, RunAgentOptions } from "./run-types.js";
export type { CompactionSettings, SessionSettings } from "./session-context.js";
export {
  type CompactionInfo,
  type HistoryCounters,
  type SessionHealth,
  sessionCounters,
  sessionHealth,
  storeCounters,
} from "./session-counters.js";
