/**
 * The text a model would be shown in place of an output stored over HTTP: the surface's placeholder
 * (a handle message, or the continuation surface's first characters and marker), exactly as the
 * session loop's projection renders it.
 */
import { isSpillwayError } from "../core/errors.js";
import type { OutputRecord, OutputStore } from "../store/output-store.js";
import type { SurfaceName } from "../surfaces/index.js";

export interface HandleMessage {
  readonly text: string;
  readonly continuation?: {
    readonly toolCallId: string;
    readonly shown: number;
    readonly total: number;
  };
}

/**
 * The placeholder of a stored output under a surface.
 *
 * @example
 * const { text } = await handleMessageOf(store, record, "get_continuation", 4000);
 * // "…first 4000 chars…\n[truncated — showing 4000/24591 chars. Call get_continuation with tool_call_id=\"call_abc123\" to read more]"
 */
export async function handleMessageOf(
  outputs: OutputStore,
  record: OutputRecord,
  surfaceName: SurfaceName,
  continuationChars: number,
): Promise<HandleMessage> {
  const { continuationMarker, createSurface } = await import("../surfaces/index.js");
  const surface = createSurface(surfaceName, { synopsisLines: 5, continuationChars });
  try {
    const placeholder = await surface.placeholder(record, {
      toolCallId: record.toolCallId ?? record.id,
      outputs,
      scope: { sessionId: record.sessionId },
    });
    if (!placeholder.continuation) return { text: placeholder.text };
    const { toolCallId, shown, total } = placeholder.continuation;
    return {
      text: `${placeholder.text}\n${continuationMarker(toolCallId, shown, total, true)}`,
      continuation: placeholder.continuation,
    };
  } catch (error) {
    if (!isSpillwayError(error)) throw error;
    return { text: `(no handle message: ${error.code}: ${error.message})` };
  }
}
