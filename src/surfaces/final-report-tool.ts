import type { ToolDefinition } from "../core/tool-definition.js";

/** The tool that delivers an agent's final answer (the read-grep agent's prompt names it). */
export const FINAL_REPORT = "agent__final_report";

/**
 * The model-facing definition of `agent__final_report(report)`.
 *
 * @example
 * const tools = [...readGrepSurface.tools(), FINAL_REPORT_DEFINITION];
 */
export const FINAL_REPORT_DEFINITION: ToolDefinition = {
  name: FINAL_REPORT,
  description: "Deliver your final report: your complete answer to the task. This ends your work.",
  inputSchema: {
    type: "object",
    additionalProperties: false,
    required: ["report"],
    properties: {
      report: { type: "string", description: "The complete final answer, in Markdown." },
    },
  },
};
