/**
 * spillway/ai: lossless tool results for applications that run their own Vercel AI SDK loop
 * (`generateText`, `streamText`, `ToolLoopAgent`). Change one line, `tools: spillwayTools(tools)`:
 * every result is stored whole, the model sees it when it fits and a handle message when it
 * does not, and reads the rest with `get_tool_output`. docs/ai-sdk.md has the details.
 *
 * @example
 * import { generateText, stepCountIs } from "ai";
 * import { spillwayTools } from "spillway/ai";
 *
 * const { text } = await generateText({
 *   model,
 *   tools: spillwayTools({ fetchLogs }),
 *   stopWhen: stepCountIs(10),
 *   prompt: "Find the first error in today's log and quote it.",
 * });
 */

export type { GetToolOutputArgs } from "../surfaces/get-tool-output/schema.js";
export { closeSpillwayStores } from "./default-store.js";
export type { ExtractionUsage } from "./extraction.js";
export { localModel } from "./local-model.js";
export type {
  HandleMessageFormatter,
  HandleMessageInfo,
  SpillwayAsyncOptions,
  SpillwayExtractionOptions,
  SpillwayOptions,
  TokenBudget,
  TokenBudgetInfo,
} from "./options.js";
export { type SpillwayPrepareStepOptions, spillwayPrepareStep } from "./prepare-step.js";
export { type GetToolOutputResult, readStoredOutput, waitForOutputs } from "./reads.js";
export type { CallInfo, ModelView, SpillwaySession } from "./session.js";
export {
  type SpillwayRetrievalTools,
  type SpillwayTool,
  type SpillwayToolSet,
  spillwaySessionOf,
  spillwayTools,
  WAIT_FOR_TOOL_OUTPUT,
} from "./spillway-tools.js";
export { isBackgroundOutput, type SpillwayBackgroundOutput } from "./time-trigger.js";
