/**
 * `get_tool_output`, the tool the gateway adds: spillway's default surface, described for an
 * MCP client's model, with handle references (passing a stored output into another tool)
 * documented where the model reads about tools.
 */
import type { ToolDefinition } from "../core/tool-definition.js";
import { HANDLE_REFERENCE_PREFIX } from "../retrieval/handle-reference.js";
import { createSurface, type Surface } from "../surfaces/index.js";

/** The name of the tool the gateway adds. */
export const READ_TOOL_NAME = "get_tool_output";

/** The surface behind the tool (spillway's default, get_tool_output). */
export function readSurface(synopsisLines: number): Surface {
  return createSurface("get_tool_output", { synopsisLines, continuationChars: 4_000 });
}

function byteText(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  return `${bytes.toLocaleString("en-US")} bytes`;
}

/** What the model is told about handle references (in the added tool's description). */
export function handleReferenceHelp(maxReferenceBytes: number): string {
  return (
    `Passing a stored output to another tool: give any tool argument the whole string value ` +
    `"${HANDLE_REFERENCE_PREFIX}<id>" (for example content="${HANDLE_REFERENCE_PREFIX}out_5k2v9w…"), or a part of it ` +
    `with "?lines=100-200" (1-based, inclusive) or "?chars=0-4000" (0-based, end exclusive). spillway replaces it with the ` +
    `output's exact stored content before the call is sent, so you never need to read an output to pass it on. ` +
    `One call may carry at most ${byteText(maxReferenceBytes)} this way; past that the call is refused, never cut. ` +
    `Outputs are also MCP resources with those URIs.`
  );
}

/**
 * The tool definition the client sees: the surface's schema; without `extract` (and its
 * strategy) when no model is available; its description extended with handle references.
 */
export function readToolDefinition(
  surface: Surface,
  options: { readonly extract: boolean; readonly maxReferenceBytes: number },
): Record<string, unknown> {
  const base = surface.tools()[0] as ToolDefinition;
  const schema = structuredClone(base.inputSchema) as {
    properties: Record<string, { enum?: string[]; description?: string }>;
  };
  if (!options.extract) {
    const mode = schema.properties.mode;
    if (mode?.enum) {
      mode.enum = mode.enum.filter((value) => value !== "extract");
      if (mode.description) {
        mode.description = mode.description.replace(
          / extract = ask a model to find what `query` describes\./,
          "",
        );
      }
    }
    // `query` stays: mode="search" takes it too.
    const query = schema.properties.query;
    if (query) query.description = 'mode="search": the words to find, as you would write them.';
    delete schema.properties.strategy;
  }
  const extractNote = options.extract
    ? ""
    : ' (mode="extract" is not offered: no model is available to this gateway for it)';
  return {
    name: READ_TOOL_NAME,
    title: "Read a stored tool output",
    description:
      `${base.description}${extractNote}\n\n` +
      "Every tool result is stored whole by spillway; a result too large to show is replaced by a message naming its id (out_…). " +
      `${handleReferenceHelp(options.maxReferenceBytes)}`,
    inputSchema: schema,
    annotations: { readOnlyHint: true, openWorldHint: false },
  };
}
