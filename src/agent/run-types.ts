import type { AgentDefinition, CliSettings, McpServerSpec } from "../config/index.js";
import type { Clock } from "../core/clock.js";
import type { Extractor } from "../extraction/extractor.js";
import type { ModelReply, ModelRequest } from "../providers/model-caller.js";
import type { ModelTarget } from "../providers/models.js";
import type { SessionStatus } from "../store/history.js";
import type { SpillwayStores } from "../store/sqlite-history-store.js";
import type { Surface } from "../surfaces/surface.js";
import type { UsageReport } from "./accounting.js";
import type { AgentEventListener } from "./events.js";

/** What {@link runAgent} takes: the agent, the task, settings at CLI level, and hooks. */
export interface RunAgentOptions {
  /** The agent: a path to its Markdown file, or a loaded definition. Not needed to resume. */
  readonly agent?: string | AgentDefinition;
  /** The task. Optional when resuming (a given prompt is appended as a new user message). */
  readonly prompt?: string;
  /** Model ref(s), highest precedence (like `--model`): e.g. `openai/gpt-4.1`. */
  readonly model?: string | readonly string[];
  /** Other settings at CLI level (highest precedence). */
  readonly settings?: CliSettings;
  /** Extra MCP servers (merged over the agent's). */
  readonly mcpServers?: Record<string, McpServerSpec>;
  /** Store directory (default `$SPILLWAY_HOME` or `~/.spillway`). Ignored when `stores` is given. */
  readonly home?: string;
  readonly stores?: SpillwayStores;
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** An explicit config file instead of the lookup (cwd, then home). */
  readonly configPath?: string;
  readonly onEvent?: AgentEventListener;
  /** Abort: cancels the model call and every running tool at once (recorded as aborted). */
  readonly signal?: AbortSignal;
  /**
   * Graceful stop: the next turn is the final one (the model wraps up with what it has);
   * background tools keep running meanwhile, and any still running when the session ends are
   * recorded as aborted. Sub-agents get it too.
   */
  readonly stop?: AbortSignal;
  /** Continue this session from its canonical history. */
  readonly resume?: string;
  /** Replaces the session's extraction engine (model-driven reads of outputs). */
  readonly extractor?: Extractor;
  /** false: no extraction in this session (e.g. the read-grep agent itself). */
  readonly extraction?: false;
  /** Replaces the configured surface (the read-grep agent's Read/Grep). */
  readonly surface?: Surface;
  /** Calls beyond this many in one turn get an error instead of running. */
  readonly maxToolCallsPerTurn?: number;
  /** Replace the model call (tests, custom routing); defaults to AI SDK providers. */
  readonly callModel?: (
    targets: readonly ModelTarget[],
    request: ModelRequest,
  ) => Promise<ModelReply>;
  readonly clock?: Clock;
  /** @internal Sub-agent plumbing. */
  readonly parent?: {
    readonly sessionId: string;
    readonly toolCallId: string;
    readonly depth: number;
  };
}

/** What a run ends with. */
export interface AgentRunResult {
  readonly sessionId: string;
  readonly status: Exclude<SessionStatus, "running">;
  /** The final report (or, when the run failed, the agent's last words if any). */
  readonly report: string | null;
  readonly error: string | null;
  readonly turns: number;
  /** Tokens, cost and durations, sub-agents included. */
  readonly usage: UsageReport;
  readonly tracePath: string;
}

/** runAgent itself, passed down to the parts that start linked sessions (sub-agents, read-grep). */
export type RunAgent = (options: RunAgentOptions) => Promise<AgentRunResult>;
