import { toolCall } from "../../src/testing/index.js";

const MARKER =
  /Call get_continuation with tool_call_id="([^"]+)"(?: offset=(\d+))? to read more\]$/;

/**
 * The call a scripted model makes on reading a result that ends with the continuation marker:
 * `get_continuation` from where the shown part ends; undefined when the result has no marker
 * (the output is read to its end). Blind: it uses only the text the model was shown.
 *
 * @example
 * const next = continuationCallOf(last.text);
 * if (next) return next;
 */
export function continuationCallOf(text: string): ReturnType<typeof toolCall> | undefined {
  const marker = MARKER.exec(text);
  if (!marker) return undefined;
  const shown = /showing (\d+)\//.exec(text)?.[1];
  if (shown === undefined) throw new Error(`a continuation marker without "showing N/": ${text}`);
  return toolCall("get_continuation", { tool_call_id: marker[1], offset: Number(shown) });
}
