import type { CliSettings } from "../config/index.js";
import { SpillwayError } from "../core/errors.js";
import { randomId } from "../core/ids.js";
import type { SpillwayStores } from "../store/sqlite-history-store.js";
import type { UsageReport } from "./accounting.js";
import { type PlanOptions, planRun, type RunPlan, resumePlan, storedPlan } from "./run-settings.js";
import type { RunAgentOptions } from "./run-types.js";
import { failInterruptedOutputs, repairHistory } from "./session-resume.js";

/** A session ready to run: new (history holds the prompt) or resumed (history repaired). */
export interface StartedSession {
  readonly sessionId: string;
  readonly plan: RunPlan;
  readonly resumed: boolean;
  /** The accounting stored by earlier runs of a resumed session. */
  readonly previous: UsageReport | null;
}

/** The run's own settings at CLI level: `settings`, with `model` as `models`. */
export function cliSettings(options: RunAgentOptions): CliSettings {
  return {
    ...(options.settings ?? {}),
    ...(options.model !== undefined ? { models: options.model } : {}),
  };
}

/**
 * Creates the session record (or reopens a stored one for `resume`), with the plan its
 * settings resolve to. Invalid options fail here, before anything is connected.
 */
export async function startSession(
  options: RunAgentOptions,
  stores: SpillwayStores,
): Promise<StartedSession> {
  if (options.resume) {
    const session = await stores.history.getSession(options.resume);
    const stored = storedPlan(session.settings, session.id);
    const plan = await resumePlan(stored, cliSettings(options), {
      home: stores.home,
      ...(options.cwd ? { cwd: options.cwd } : {}),
      ...(options.env ? { env: options.env } : {}),
      ...(options.configPath ? { configPath: options.configPath } : {}),
    });
    if (plan !== stored) await stores.history.updateSession(session.id, { settings: plan });
    await repairHistory(stores.history, session.id);
    await failInterruptedOutputs(stores.outputs, session.id);
    if (options.prompt)
      await stores.history.appendMessage(session.id, session.turns, "user", [
        { type: "text", text: options.prompt },
      ]);
    await stores.history.updateSession(session.id, { status: "running" });
    return {
      sessionId: session.id,
      plan,
      resumed: true,
      previous: (session.accounting as UsageReport | null) ?? null,
    };
  }
  if (!options.agent)
    throw new SpillwayError(
      "INVALID_ARGUMENT",
      "runAgent needs `agent` (a path or a definition), or `resume`.",
      {},
    );
  if (!options.prompt || options.prompt.trim() === "") {
    throw new SpillwayError("INVALID_ARGUMENT", "runAgent needs a non-empty `prompt` (the task).", {
      argument: "prompt",
    });
  }
  const planOptions: PlanOptions = {
    agent: options.agent,
    cli: cliSettings(options),
    ...(options.mcpServers ? { mcpServers: options.mcpServers } : {}),
    ...(options.cwd ? { cwd: options.cwd } : {}),
    home: stores.home,
    ...(options.env ? { env: options.env } : {}),
    ...(options.configPath ? { configPath: options.configPath } : {}),
  };
  const plan = await planRun(planOptions);
  const sessionId = randomId("ses");
  await stores.history.createSession({
    id: sessionId,
    agentName: plan.agentName,
    ...(plan.agentPath ? { agentPath: plan.agentPath } : {}),
    prompt: options.prompt,
    settings: plan,
    ...(options.parent
      ? { parentSessionId: options.parent.sessionId, parentToolCallId: options.parent.toolCallId }
      : {}),
  });
  await stores.history.appendMessage(sessionId, 0, "user", [
    { type: "text", text: options.prompt },
  ]);
  return { sessionId, plan, resumed: false, previous: null };
}
