/**
 * The text a model was shown for a canonical tool result, rendered again from the canonical
 * history by a viewer (`spillway sessions show`, `spillway serve`): the same projection the
 * session loop sent, with the handle always named.
 */
import { isSpillwayError } from "../core/errors.js";
import type { SessionRecord, ToolResultRef } from "../store/history.js";
import type { OutputStore } from "../store/output-store.js";
import { createSurface } from "../surfaces/index.js";
import { type RenderContext, renderResult } from "./render-result.js";
import type { RunPlan } from "./run-settings.js";
import { newSessionState } from "./session-context.js";

/**
 * What `renderResult` reads of a session, rebuilt for a viewer: the output store, the session
 * id, the surface (handle messages), the settings (legacy truncation) and a render cache.
 * Build it once per session view and reuse it (the cache makes repeated renders cheap).
 *
 * @example
 * const context = viewerRenderContext(stores.outputs, session, storedPlan(session.settings, session.id));
 * const text = await projectedResultText(context, part.result);
 */
export function viewerRenderContext(
  outputs: OutputStore,
  session: SessionRecord,
  plan: RunPlan,
): RenderContext {
  const state = {
    ...newSessionState(),
    turn: session.turns,
    finalReport: session.finalReport,
    taskText: session.prompt,
  };
  return {
    sessionId: session.id,
    outputs,
    surface: createSurface(plan.settings.toolOutput.surface, plan.settings.toolOutput),
    settings: plan.settings,
    state,
  };
}

/**
 * The projected text of a result, as the model was shown it. Typed errors while rendering
 * (an unreadable record) become a sentence naming the code; a null context (the session's
 * settings are unreadable) says so.
 */
export async function projectedResultText(
  context: RenderContext | null,
  ref: ToolResultRef,
): Promise<string> {
  if (ref.kind === "error") return `Error ${ref.code}: ${ref.message}`;
  if (ref.kind === "note") return ref.text;
  if (!context) return "(the projection cannot be rendered: the session's settings are unreadable)";
  try {
    return await renderResult(context, ref);
  } catch (error) {
    if (!isSpillwayError(error)) throw error;
    return `(the projection cannot be rendered: ${error.code}: ${error.message})`;
  }
}
