/**
 * A report made before reading anything the run stored by handle is sent back once. The 1.5B
 * local model, shown seed 000's handle message, reported the output's handle id as "the
 * incident id on the ERROR line", one turn after the tool ran, without reading the output.
 */
import type { SessionContext } from "./session-context.js";

/** Outputs named in the note, at most; the rest are counted. */
const NAMED = 3;

/**
 * Why this report is not taken yet, or undefined to take it: some output was shown by handle
 * (its content never in the context), none of them has been read, it is not the final turn,
 * and the report was not sent back before. The second report is taken as it is.
 *
 * @example
 * await reportBeforeReading(context);
 * // "Not delivered yet: you have not read out_x (the output of live__read_log) …"
 */
export async function reportBeforeReading(context: SessionContext): Promise<string | undefined> {
  const { state } = context;
  if (state.finalTurn || state.reportHeldUnread || state.shownByHandle.size === 0) return undefined;
  const unread: { id: string; toolName: string }[] = [];
  for (const id of state.shownByHandle) {
    const record = await context.outputs.get(id, { sessionId: context.sessionId });
    // One read of any of them: the model has looked at what it stored.
    if (record.readCount > 0) return undefined;
    unread.push({ id, toolName: record.toolName });
  }
  state.reportHeldUnread = true;
  const named = unread
    .slice(0, NAMED)
    .map((o) => `${o.id} (the output of ${o.toolName})`)
    .join(", ");
  const more = unread.length > NAMED ? ` and ${unread.length - NAMED} more` : "";
  const tools = context.surface
    .tools()
    .map((t) => t.name)
    .join(" or ");
  return [
    `Not delivered yet: you have not read ${named}${more}. Its content is not in your context, and its id is only a name for it, not a value from it.`,
    `If your task needs what it holds, read it now with ${tools}, as its tool result shows, and report what the read returns.`,
    "If your report does not depend on it, call agent__final_report again with the same report.",
  ].join("\n");
}
