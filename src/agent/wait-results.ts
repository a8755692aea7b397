/**
 * What wait_for_tool_output shows of the tools it reports (spillway's texts; sessions that keep
 * the original design's exact texts get only its list of ids and sizes): a small output whole,
 * counted as a read, and a larger one's handle message with the exact calls that read it. A
 * model gets the content, or a call it can copy, instead of a `get_tool_output(id, mode)`
 * template that a small model fails to fill in.
 */
import type { BackgroundJob } from "../async/background.js";
import { completedText } from "../surfaces/async-texts.js";
import { inlineText, placeholderText } from "./render-result.js";
import { type SessionContext, sessionAnswerChars } from "./session-context.js";

/**
 * The completed tools, each ready one followed by its output (whole when it fits the answer
 * budget) or by how to read it.
 *
 * @example
 * await guidedCompletedText(context, [job]);
 * // "Completed tools:\n- ci__build_status (id: out_1, size: 48B)\n\nThe output of ci__build_status (out_1), whole:\nstatus=ok …"
 */
export async function guidedCompletedText(
  context: SessionContext,
  jobs: readonly BackgroundJob[],
): Promise<string> {
  const parts = [completedText(jobs)];
  const scope = { sessionId: context.sessionId };
  let budget = sessionAnswerChars(context);
  for (const job of jobs) {
    if (job.status !== "ready") continue;
    const record = await context.outputs.get(job.outputId, scope);
    const chars = record.charCount ?? Number.POSITIVE_INFINITY;
    if (record.kind !== "binary" && chars <= budget) {
      // A read like any other (counted): the output's content is now in the context.
      const whole = await inlineText(context, record);
      budget -= chars;
      parts.push(`The output of ${job.toolName} (${record.id}), whole:\n${whole}`);
    } else {
      parts.push(await placeholderText(context, record));
    }
  }
  return parts.join("\n\n");
}
