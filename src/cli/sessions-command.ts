/**
 * `spillway sessions list` and `spillway sessions show <id>`: the agent runs in the store and
 * each one's canonical history, tool results shown as the model saw them.
 */

import type { Command } from "commander";
import type { UsageReport } from "../agent/accounting.js";
import { type RunPlan, storedPlan } from "../agent/run-settings.js";
import { sessionHealth, storeCounters } from "../agent/session-counters.js";
import { tracePathOf } from "../agent/trace.js";
import { clipText } from "../core/clip-text.js";
import { isSpillwayError } from "../core/errors.js";
import type { SessionRecord } from "../store/history.js";
import { type CliContext, contextOf, withStores } from "./context.js";
import { EXIT_OK } from "./errors.js";
import {
  fields,
  formatBytes,
  formatCompact,
  formatCount,
  formatDuration,
  formatTime,
  table,
} from "./format.js";
import { integer } from "./option-parsers.js";
import { costText, formatCost, modelCallsText } from "./run-summary.js";
import { healthFields } from "./session-health.js";
import { historyLines, RESULT_LINES } from "./session-render.js";

const PROMPT_CHARS = 60;
const DEFAULT_LIMIT = 100;

/** The usage report a session stored, if any. */
function usageOf(session: SessionRecord): UsageReport | null {
  const usage = session.accounting as UsageReport | null;
  return usage?.total ? usage : null;
}

function planOf(session: SessionRecord): RunPlan | null {
  try {
    return storedPlan(session.settings, session.id);
  } catch (error) {
    if (isSpillwayError(error, "STORE_CORRUPT")) return null;
    throw error;
  }
}

export interface SessionsListOptions {
  readonly limit?: number;
  readonly offset?: number;
  readonly all?: boolean;
}

/** `sessions list`: newest first; top-level sessions unless --all. */
export async function listSessions(
  context: CliContext,
  options: SessionsListOptions,
): Promise<number> {
  const limit = options.limit ?? DEFAULT_LIMIT;
  const sessions = await withStores(context, (stores) =>
    stores.history.listSessions({
      limit,
      offset: options.offset ?? 0,
      ...(options.all ? {} : { parentSessionId: null }),
    }),
  );
  if (context.json) {
    await context.out.json(sessions);
    return EXIT_OK;
  }
  if (sessions.length === 0) {
    await context.out.lines([
      `No sessions in ${context.home}. Start one with: spillway run <agent.md> "<task>"`,
    ]);
    return EXIT_OK;
  }
  const usage = (s: SessionRecord, show: (u: UsageReport) => string) => {
    const u = usageOf(s);
    return u ? show(u) : "-";
  };
  await context.out.lines(
    table(sessions, [
      { header: "ID", value: (s) => s.id },
      ...(options.all
        ? [{ header: "PARENT", value: (s: SessionRecord) => s.parentSessionId ?? "-" }]
        : []),
      { header: "AGENT", value: (s) => clipText(s.agentName, 24) },
      { header: "STATUS", value: (s) => s.status },
      { header: "TURNS", value: (s) => String(s.turns), align: "right" },
      { header: "CREATED", value: (s) => formatTime(s.createdAt) },
      {
        header: "CALLS",
        value: (s) => usage(s, (u) => String(u.total.modelCalls)),
        align: "right",
      },
      {
        header: "TOKENS IN/OUT",
        value: (s) =>
          usage(
            s,
            (u) => `${formatCompact(u.total.inputTokens)}/${formatCompact(u.total.outputTokens)}`,
          ),
        align: "right",
      },
      {
        header: "COST",
        value: (s) =>
          usage(s, (u) => (u.total.costUsd === null ? "?" : formatCost(u.total.costUsd))),
        align: "right",
      },
      {
        header: "PROMPT",
        value: (s) => clipText(s.prompt.replace(/\s+/g, " ").trim(), PROMPT_CHARS),
      },
    ]),
  );
  if (sessions.length === limit) {
    context.out.note(
      `# ${limit} shown; more may exist: add --offset ${(options.offset ?? 0) + limit} for the next ones`,
    );
  }
  if (sessions.some((s) => usageOf(s)?.total.costUsd === null)) {
    context.out.note("# cost ?: some model of the session has no pricing configured");
  }
  return EXIT_OK;
}

function recordLines(
  session: SessionRecord,
  plan: RunPlan | null,
  children: readonly SessionRecord[],
  home: string,
  health: readonly [string, string][],
): string[] {
  const usage = usageOf(session);
  const settings = plan?.settings;
  return fields([
    ["session", session.id],
    ["agent", `${session.agentName}${session.agentPath ? ` (${session.agentPath})` : ""}`],
    ["status", session.status],
    ...(session.parentSessionId
      ? [
          [
            "parent",
            `${session.parentSessionId} (tool call ${session.parentToolCallId ?? "?"})`,
          ] as [string, string],
        ]
      : []),
    ["created", formatTime(session.createdAt)],
    [
      "updated",
      `${formatTime(session.updatedAt)} (after ${formatDuration(session.updatedAt - session.createdAt)})`,
    ],
    [
      "turns",
      `${session.turns}${settings && settings.maxTurns > 0 ? ` of ${settings.maxTurns}` : ""}`,
    ],
    ...(settings
      ? [
          [
            "settings",
            `models ${settings.models.map((m) => m.ref).join(", ")} · surface ${settings.toolOutput.surface}` +
              `${settings.toolOutput.enabled ? "" : " (disabled: legacy truncation)"} · inline up to ${formatCount(settings.toolResponseMaxBytes)} bytes`,
          ] as [string, string],
        ]
      : []),
    ...(usage
      ? ([
          ["model calls", modelCallsText(usage)],
          [
            "tokens",
            `${formatCount(usage.total.inputTokens)} in / ${formatCount(usage.total.outputTokens)} out`,
          ],
          ["cost", costText(usage)],
          [
            "tool calls",
            `${formatCount(usage.total.toolCalls)} (${formatDuration(usage.total.toolMs)} in tools)`,
          ],
          ["stored", formatBytes(usage.total.storedBytes)],
        ] as [string, string][])
      : []),
    ...children.map(
      (child, i) =>
        [
          i === 0 ? "sub-agents" : "",
          `${child.id} ${child.agentName} ${child.status} (tool call ${child.parentToolCallId ?? "?"})`,
        ] as [string, string],
    ),
    ...(session.error ? [["error", session.error] as [string, string]] : []),
    ...health,
    ["trace", tracePathOf(home, session.id)],
  ]);
}

/** `sessions show <id>`: the record, then the history as the model saw it. */
export async function showSession(
  context: CliContext,
  id: string,
  options: { full?: boolean },
): Promise<number> {
  await withStores(context, async (stores) => {
    const session = await stores.history.getSession(id);
    const messages = await stores.history.messages(id);
    const toolCalls = await stores.history.toolCalls(id);
    const children = await stores.history.listSessions({ parentSessionId: id, limit: 10_000 });
    const health = await sessionHealth(stores.history, id);
    const store = await storeCounters(stores.history);
    if (context.json) {
      await context.out.json({
        session,
        messages,
        toolCalls,
        subSessions: children.map((c) => c.id),
        health,
        storeCounters: store,
      });
      return;
    }
    const plan = planOf(session);
    const byCall = new Map(
      children.flatMap((c) => (c.parentToolCallId ? [[c.parentToolCallId, c] as const] : [])),
    );
    const summaries = await stores.history.summaries(id);
    const history = await historyLines(
      {
        stores,
        session,
        plan,
        toolCalls,
        children: byCall,
        full: options.full === true,
        summaries,
      },
      messages,
    );
    const report = session.finalReport;
    await context.out.lines([
      ...recordLines(session, plan, children, stores.home, healthFields(health, store)),
      "",
      "history (canonical; tool results as the model was shown them):",
      "",
      ...history,
      ...(report !== null
        ? [
            session.status === "completed"
              ? "final report:"
              : "the agent's last message (no final report):",
            ...report
              .replace(/\n$/, "")
              .split("\n")
              .map((l) => (l === "" ? "" : `  ${l}`)),
          ]
        : []),
    ]);
  });
  return EXIT_OK;
}

/** Registers `spillway sessions list|show`. */
export function addSessionsCommand(program: Command): void {
  const sessions = program
    .command("sessions")
    .description("list agent runs and show their canonical history");
  sessions
    .command("list")
    .description("list sessions, newest first (top-level runs; --all adds sub-agent sessions)")
    .option(
      "--limit <n>",
      `show at most n sessions (default ${DEFAULT_LIMIT})`,
      integer(1, 1_000_000),
    )
    .option("--offset <n>", "skip the n newest (to page through a long list)", integer(0))
    .option("--all", "include sub-agent sessions (with their parent session)")
    .action((options: SessionsListOptions, command: Command) =>
      listSessions(contextOf(command), options).then((code) => {
        if (code !== 0) process.exitCode = code;
      }),
    );
  sessions
    .command("show")
    .description(
      "show a session: its record, then its history with tool results as the model saw them",
    )
    .argument("<id>", "session id (ses_…)")
    .option(
      "--full",
      `show whole tool results and arguments (default: ${RESULT_LINES} lines of each result)`,
    )
    .action((id: string, options: { full?: boolean }, command: Command) =>
      showSession(contextOf(command), id, options).then((code) => {
        if (code !== 0) process.exitCode = code;
      }),
    );
}
