/**
 * What the gateway tells a client at initialize: its own instructions followed by its servers',
 * and the capabilities it answers for (its tools and resources, and what its servers offer).
 */
import type { McpServerHandshake } from "../providers/mcp/index.js";

/** The gateway's own instructions to the client's model. */
export const GATEWAY_INSTRUCTIONS =
  "Tool results pass through spillway, which stores every one whole. A result too large to show is replaced by a " +
  "message naming its output id (out_…) that shows only some of its lines: read the rest with get_tool_output " +
  "(search, grep, slice, page, json) instead of guessing. Pass a stored output into another tool's argument as " +
  '"spillway://outputs/<id>" and the exact content is sent in its place.';

/**
 * The capabilities advertised: tools, resources (list changes; subscriptions when a server
 * has them), completions, and prompts and logging when some server offers them.
 *
 * @example
 * advertisedCapabilities(upstream.handshakes()); // { tools: {}, resources: { listChanged: true }, completions: {} }
 */
export function advertisedCapabilities(
  handshakes: ReadonlyMap<string, McpServerHandshake> | undefined,
): Record<string, unknown> {
  const all = [...(handshakes?.values() ?? [])];
  const some = (key: string) => all.some((h) => h.capabilities[key] !== undefined);
  const flag = (key: string, sub: string) =>
    all.some((h) => (h.capabilities[key] as Record<string, unknown> | undefined)?.[sub] === true);
  return {
    tools: {},
    resources: {
      listChanged: true,
      ...(flag("resources", "subscribe") ? { subscribe: true } : {}),
    },
    completions: {},
    ...(some("prompts")
      ? { prompts: flag("prompts", "listChanged") ? { listChanged: true } : {} }
      : {}),
    ...(some("logging") ? { logging: {} } : {}),
  };
}

/** The gateway's instructions, then each server's, named. */
export function gatewayInstructions(
  handshakes: ReadonlyMap<string, McpServerHandshake> | undefined,
): string {
  const theirs = [...(handshakes ?? [])].flatMap(([server, h]) =>
    h.instructions ? [`Server "${server}": ${h.instructions}`] : [],
  );
  return [GATEWAY_INSTRUCTIONS, ...theirs].join("\n\n");
}
