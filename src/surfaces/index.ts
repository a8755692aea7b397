import { createGetContinuationSurface } from "./get-continuation.js";
import { createGetToolOutputSurface } from "./get-tool-output.js";
import type { Surface, SurfaceName } from "./surface.js";
import { createToolOutputSurface } from "./tool-output.js";

export { continuationMarker, GET_CONTINUATION } from "./get-continuation.js";
export { GET_TOOL_OUTPUT } from "./get-tool-output.js";
export { defaultHandleMessage, synopsisOf } from "./handle-message.js";
export type {
  Placeholder,
  Surface,
  SurfaceAnswer,
  SurfaceContext,
  SurfaceName,
} from "./surface.js";
export { SURFACE_NAMES } from "./surface.js";
export {
  TOOL_OUTPUT,
  toolOutputFailure,
  toolOutputHandleMessage,
  toolOutputSuccess,
  truncateOutput,
} from "./tool-output.js";

/**
 * The surface a session uses (`toolOutput.surface`).
 *
 * @example
 * const surface = createSurface("get_tool_output", { synopsisLines: 5, continuationChars: 4000 });
 */
export function createSurface(
  name: SurfaceName,
  options: { synopsisLines: number; continuationChars: number },
): Surface {
  switch (name) {
    case "tool_output":
      return createToolOutputSurface();
    case "get_continuation":
      return createGetContinuationSurface({ chars: options.continuationChars });
    default:
      return createGetToolOutputSurface({ synopsisLines: options.synopsisLines });
  }
}
