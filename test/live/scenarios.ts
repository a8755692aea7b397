/**
 * The live scenarios: every `tool_output` compatibility mode, every `get_tool_output` mode,
 * `get_continuation` paging, a slow tool that goes async then `wait_for_tool_output`, and an
 * async sub-agent. The prompt asks as a person would (the get_tool_output scenarios name neither
 * the mode nor a pattern) and never gives the answer. A scenario passes only when the answer is
 * in the final report AND a tool result, as the model was shown it, held it: the handle message
 * counts, because its search for the task may show the very line asked for. A scenario that
 * names a strategy (`mustShow`) needs a retrieval call's result that showed both.
 */
import { buildReport, incidentLog, numberedLines, ordersJson, token } from "./scenario-data.js";

export interface Scenario {
  readonly id: string;
  /** The live MCP server's arguments: tool, then size and position/shape. */
  readonly server: readonly [tool: string, size: number, at?: number, shape?: string];
  readonly prompt: (seed: number) => string;
  readonly answer: (seed: number) => string;
  /** Tools whose results count as retrieval. */
  readonly retrieval: readonly string[];
  /** Extra frontmatter (surface, async settings, …). */
  readonly frontmatter?: Record<string, unknown>;
  /** Text the retrieval result must also hold (e.g. the strategy a tool_output mode used). */
  readonly mustShow?: string;
  /** A sub-agent file to write beside the agent: its frontmatter tools and its body. */
  readonly subagent?: { readonly name: string; readonly server: readonly [string, number] };
}

const GET = ["get_tool_output"];
const TOOL_OUTPUT = { toolOutput: { surface: "tool_output" } };

const LOG = 200;
const logAnswer = (at: number) => (seed: number) => incidentLog(seed, LOG, at).answer;

export const SCENARIOS: readonly Scenario[] = [
  {
    id: "get_tool_output grep",
    server: ["read_log", LOG, 0.6],
    prompt: () =>
      "What incident id is written on the error line of the application log that live__read_log returns? Report it exactly.",
    answer: logAnswer(0.6),
    retrieval: GET,
  },
  {
    id: "get_tool_output slice",
    server: ["get_records", 300, 0.45],
    prompt: () => "What checksum is on line 135 of the records that live__get_records returns?",
    answer: (seed) => numberedLines(seed, 300, 135).answer,
    retrieval: GET,
  },
  {
    id: "get_tool_output page",
    server: ["get_build_report", 150],
    prompt: () =>
      "Which build_id does the summary of the build report from live__get_build_report state?",
    answer: (seed) => buildReport(seed, 150).answer,
    retrieval: GET,
  },
  {
    id: "get_tool_output json",
    server: ["get_orders", 120, 0, "pretty"],
    prompt: (seed) =>
      `What is the tracking code of order ${ordersJson(seed, 120, true).order} in the orders that live__get_orders returns?`,
    answer: (seed) => ordersJson(seed, 120, true).answer,
    retrieval: GET,
  },
  {
    id: "get_tool_output extract",
    server: ["read_log", LOG, 0.3],
    prompt: () =>
      "Have the application log from live__read_log read for you, and report the incident id on its error line.",
    answer: logAnswer(0.3),
    retrieval: GET,
  },
  {
    id: "get_continuation paging",
    server: ["read_log", 90, 0.8],
    prompt: () =>
      "Call live__read_log. Its output is shown in chunks: call get_continuation until you reach the ERROR line, then report the incident id written on it.",
    answer: (seed) => incidentLog(seed, 90, 0.8).answer,
    retrieval: ["get_continuation"],
    frontmatter: { toolOutput: { surface: "get_continuation" } },
  },
  {
    id: "tool_output auto → full-chunked",
    server: ["get_orders", 60, 0, "minified"],
    prompt: (seed) =>
      `Call live__get_orders. Its output is stored; call tool_output with its handle and extract="the tracking code of order ${ordersJson(seed, 60, false).order}", then report that tracking code.`,
    answer: (seed) => ordersJson(seed, 60, false).answer,
    retrieval: ["tool_output"],
    frontmatter: TOOL_OUTPUT,
    mustShow: "STRATEGY:full-chunked",
  },
  {
    id: "tool_output auto → read-grep",
    server: ["read_log", 900, 0.7],
    prompt: () =>
      'Call live__read_log. Its output is stored; call tool_output with its handle and extract="the incident id on the ERROR line", then report that incident id.',
    answer: (seed) => incidentLog(seed, 900, 0.7).answer,
    retrieval: ["tool_output"],
    frontmatter: TOOL_OUTPUT,
    mustShow: "STRATEGY:read-grep",
  },
  ...(["full-chunked", "read-grep"] as const).map(
    (mode): Scenario => ({
      id: `tool_output mode=${mode}`,
      server: ["read_log", LOG, 0.4],
      prompt: () =>
        `Call live__read_log. Its output is stored; call tool_output with its handle, extract="the incident id on the ERROR line" and mode="${mode}", then report that incident id.`,
      answer: logAnswer(0.4),
      retrieval: ["tool_output"],
      frontmatter: TOOL_OUTPUT,
      mustShow: `STRATEGY:${mode}`,
    }),
  ),
  {
    id: "tool_output mode=truncate",
    server: ["read_log", LOG, 0.995],
    prompt: () =>
      'Call live__read_log. Its output is stored; call tool_output with its handle, extract="the incident id on the ERROR line" and mode="truncate", then report that incident id.',
    answer: logAnswer(0.995),
    retrieval: ["tool_output"],
    frontmatter: TOOL_OUTPUT,
    mustShow: "STRATEGY:truncate",
  },
  {
    id: "slow tool async → wait_for_tool_output",
    server: ["build_status", 4],
    prompt: () =>
      "Call live__build_status. It is slow and goes on in the background: wait for it with wait_for_tool_output, then report the artifact digest it returns.",
    answer: (seed) => `sha-${token(seed, "artifact", 12)}`,
    retrieval: ["wait_for_tool_output", "get_tool_output"],
    frontmatter: { asyncTimeoutSecs: 1 },
  },
  {
    id: "async sub-agent",
    server: ["read_log", 10, 0.5],
    prompt: () =>
      "Start the vault agent in the background (agent__vault with async: true) and ask it for the current deploy key; then wait for its report with wait_for_tool_output and report the deploy key.",
    answer: (seed) => `KEY-${token(seed, "vault", 10).toUpperCase()}`,
    retrieval: ["wait_for_tool_output", "get_tool_output"],
    subagent: { name: "vault", server: ["vault_lookup", 1] },
  },
];
