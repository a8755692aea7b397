import type { ModelMessage, PrepareStepFunction, PrepareStepResult, Tool } from "ai";
import { SpillwayError } from "../core/errors.js";
import { asyncOutputStatuses } from "../surfaces/async-statuses.js";
import { GET_TOOL_OUTPUT } from "../surfaces/get-tool-output/schema.js";
import { renderSystemNotice } from "../surfaces/system-notice.js";
import type { SpillwaySession } from "./session.js";
import { spillwaySessionOf } from "./spillway-tools.js";

/** Options of {@link spillwayPrepareStep}. */
export interface SpillwayPrepareStepOptions<TOOLS extends Record<string, Tool>> {
  /** The tool set {@link spillwayTools} returned (the notice reads its session). */
  readonly tools: TOOLS;
  /** Your own prepareStep: it runs first, and the notice is added to the messages it returns. */
  readonly prepareStep?: PrepareStepFunction<TOOLS>;
  /**
   * The loop's step limit (your `stepCountIs(n)`): the last step is told to answer, with tool
   * calls off (unless your prepareStep chose a toolChoice); with `compatibilityNotice`, every
   * notice also says "turn i of N".
   */
  readonly maxSteps?: number;
  /**
   * The original async design's notice word for word, every step, with its turn count, context
   * share and numbered menu ("Call tools to advance your task", …). Default false: spillway's
   * notice, sent only with async outputs and in the last step, whose options name the read
   * modes (a menu with nothing to read is answered with its first line, copied as text).
   */
  readonly compatibilityNotice?: boolean;
  /** @deprecated The former name of `compatibilityNotice`, which wins when both are given. */
  readonly seedTexts?: boolean;
}

/**
 * The System Notice for one step, or undefined when there is nothing to say. spillway's notice
 * (the default) goes with async outputs and the last step only, and says only their status and
 * that the answer is due (SW-26 in docs/architecture.md); the original design's (`compatibility`)
 * also counts the steps (with `maxSteps`) and the context used (with a numeric `tokenBudget`).
 */
export async function stepNotice(
  session: SpillwaySession,
  messages: readonly ModelMessage[],
  stepNumber: number,
  maxSteps: number | undefined,
  compatibility = false,
): Promise<string | undefined> {
  const outputs = await session.store();
  const statuses = await asyncOutputStatuses(
    outputs,
    { sessionId: session.id },
    await session.asyncIds(),
  );
  const final = maxSteps !== undefined && stepNumber + 1 >= maxSteps;
  if (!compatibility && statuses.length === 0 && !final) return undefined;
  // The step count and the context share are the original design's only.
  const budget = compatibility ? session.options.tokenBudget : undefined;
  const contextPercent =
    typeof budget === "number"
      ? Math.min(100, Math.round(((await session.contextTokens(messages)) / budget) * 100))
      : undefined;
  if (statuses.length === 0 && contextPercent === undefined && maxSteps === undefined)
    return undefined;
  return renderSystemNotice({
    ...(compatibility && maxSteps !== undefined
      ? { turn: { number: stepNumber + 1, max: maxSteps } }
      : {}),
    ...(contextPercent !== undefined ? { contextPercent } : {}),
    asyncOutputs: statuses,
    now: session.clock(),
    final,
    canRetrieve: await session.hasHandles(),
    retrieveTools: [GET_TOOL_OUTPUT],
    guided: !compatibility,
  });
}

/**
 * A `prepareStep` that adds spillway's System Notice (D3-14) after the step's messages when
 * there is something to say: the Async Tool Status (running, ready, failed background tools)
 * with the calls it opens, and in the last step of `maxSteps` that the answer is due. The
 * notice is sent with the step only; it never enters the conversation. Composes with your own
 * prepareStep, which runs first.
 *
 * @example
 * const tools = spillwayTools({ fetchLogs }, { async: true, tokenBudget: 120_000 });
 * const agent = new ToolLoopAgent({
 *   model,
 *   tools,
 *   stopWhen: stepCountIs(12),
 *   prepareStep: spillwayPrepareStep({ tools, maxSteps: 12, prepareStep: myPrepareStep }),
 * });
 */
export function spillwayPrepareStep<TOOLS extends Record<string, Tool>>(
  options: SpillwayPrepareStepOptions<TOOLS>,
): PrepareStepFunction<TOOLS> {
  const session = spillwaySessionOf(options.tools);
  if (!session)
    throw new SpillwayError(
      "CONFIG_INVALID",
      "spillwayPrepareStep needs `tools`: the tool set spillwayTools returned (it carries the session).",
      {},
      { fault: "user" },
    );
  if (
    options.maxSteps !== undefined &&
    !(Number.isInteger(options.maxSteps) && options.maxSteps > 0)
  )
    throw new SpillwayError(
      "CONFIG_INVALID",
      `spillwayPrepareStep maxSteps must be a positive integer (got ${String(options.maxSteps)}).`,
      { maxSteps: options.maxSteps },
      { fault: "user" },
    );
  return async (step): Promise<PrepareStepResult<TOOLS>> => {
    const own = await options.prepareStep?.(step);
    const messages = own?.messages ?? step.messages;
    const notice = await stepNotice(
      session,
      messages,
      step.stepNumber,
      options.maxSteps,
      (options.compatibilityNotice ?? options.seedTexts) === true,
    );
    if (notice === undefined) return own;
    const final = options.maxSteps !== undefined && step.stepNumber + 1 >= options.maxSteps;
    return {
      ...own,
      messages: [...messages, { role: "user", content: notice }],
      ...(final && own?.toolChoice === undefined ? { toolChoice: "none" as const } : {}),
    };
  };
}
