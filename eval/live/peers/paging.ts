/**
 * Continuation paging (the generic tool-result continuation design): a result over 4,000
 * characters shows its first 4,000 and the marker `[truncated — showing 4000/N chars. Call
 * get_continuation with tool_call_id="…" to read more]`; get_continuation(tool_call_id, offset)
 * shows the next 4,000. Continuation calls do not count as turns. Continuation results are
 * ordinary tool messages, compacted with the rest when the window fills (at 90%, a summary).
 */
import { toolInputSchema } from "../../../src/core/tool-input-schema.js";
import {
  continuationMarker,
  GET_CONTINUATION,
  getContinuationArgs,
} from "../../../src/surfaces/get-continuation.js";
import type { PeerHarness } from "../peer-loop.js";
import { CODEX_COMPACTION, compactHistory } from "./context.js";

export const PAGE_CHARS = 4_000;
const COMPACT_FRACTION = 0.9;

/**
 * The paging harness.
 *
 * @example
 * const harness = paging();
 */
export function paging(): PeerHarness {
  const results = new Map<string, string>();
  const page = (id: string, text: string, offset: number) => {
    const end = Math.min(text.length, offset + PAGE_CHARS);
    const body = text.slice(offset, end);
    return end >= text.length
      ? body
      : `${body}\n${continuationMarker(id, end, text.length, offset === 0)}`;
  };
  return {
    name: "paging",
    tools: [
      {
        name: GET_CONTINUATION,
        description:
          "Retrieve the next chunk of a truncated tool result. Use when a previous tool result shows [truncated].",
        parameters: toolInputSchema(getContinuationArgs) as Record<string, unknown>,
      },
    ],
    uncounted: new Set([GET_CONTINUATION]),
    async view(text, id) {
      results.set(id, text);
      return page(id, text, 0);
    },
    async run(name, args) {
      if (name !== GET_CONTINUATION) return `Error: there is no tool ${name}.`;
      const parsed = getContinuationArgs.safeParse(args);
      const text = parsed.success ? results.get(parsed.data.tool_call_id) : undefined;
      if (!parsed.success || text === undefined)
        return JSON.stringify({ error: `Unknown tool_call_id: ${String(args.tool_call_id)}` });
      const offset = parsed.data.offset ?? PAGE_CHARS;
      if (offset < 0 || offset > text.length)
        return JSON.stringify({
          error: `offset ${offset} is past the end of the result (${text.length} chars)`,
        });
      return page(parsed.data.tool_call_id, text, offset);
    },
    async manage(messages, state) {
      if (state.tokens < COMPACT_FRACTION * state.window) return messages;
      return compactHistory(messages, state, {
        ...CODEX_COMPACTION,
        instruction:
          "Summarize the conversation so far so that you can continue the task: the user's request, the exact values found so far, what remains to be read. Respond with text only.",
        prefix: "Summary of the conversation so far:",
      });
    },
  };
}
