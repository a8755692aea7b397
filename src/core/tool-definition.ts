/**
 * A tool as a model sees it: the one shape every layer passes around (surfaces define them,
 * the agent lists them, providers send them).
 *
 * @example
 * const definition: ToolDefinition = {
 *   name: "get_tool_output",
 *   description: "Read a stored tool output.",
 *   inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
 * };
 */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the tool's arguments (type: object). */
  readonly inputSchema: Record<string, unknown>;
}
