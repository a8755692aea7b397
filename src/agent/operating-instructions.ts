import type { SessionContext } from "./session-context.js";

/**
 * spillway's standing instructions, sent after the agent's own system prompt in every request.
 * Runtime text: the report guard (report-guard.ts) never takes a report that only repeats them.
 *
 * @example
 * operatingInstructions(context).split("\n")[0];
 * // "When your task is done, call agent__final_report with your complete answer."
 */
export function operatingInstructions(context: SessionContext): string {
  const lines = [
    "When your task is done, call agent__final_report with your complete answer.",
    "Tool results are stored whole. A result too large to show is replaced by a message naming its id;",
    "its content is not in your context until you read it, so never state facts about it that you did not read.",
  ];
  if (context.settings.toolOutput.enabled) {
    const tools = context.surface
      .tools()
      .map((t) => t.name)
      .join(", ");
    lines.push(`Read stored outputs with ${tools}.`);
  }
  return lines.join("\n");
}
