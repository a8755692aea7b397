/**
 * A report made before reading anything the run stored by handle is sent back once. The 1.5B
 * local model, shown seed 000's handle message, reported the output's handle id as "the
 * incident id on the ERROR line", one turn after the tool ran, without reading the output.
 */
import { guided } from "../config/guidance.js";
import type { SessionContext } from "./session-context.js";

/** Outputs named in the note, at most; the rest are counted. */
const NAMED = 3;

/** How many times a report naming an unread output's id is sent back, at most. */
const ID_HOLDS = 2;

/**
 * Why this report is not taken yet, or undefined to take it. Never in the final turn. A report
 * that gives the id of an output shown by handle and never read, as if it were a value, is sent
 * back (at most twice a run: the 1.5B model, told once it could deliver the same report again,
 * did). Otherwise, when outputs were shown by handle and none has been read, the first report
 * is sent back once; the second is taken as it is.
 *
 * @example
 * await reportBeforeReading(context, "The incident id is out_2h8w…");
 * // "Not delivered: your report gives out_2h8w… as a value, …"
 */
export async function reportBeforeReading(
  context: SessionContext,
  report: string,
): Promise<string | undefined> {
  const { state } = context;
  if (
    state.finalTurn ||
    state.shownByHandle.size === 0 ||
    !guided(context.settings, "reportGuards")
  )
    return undefined;
  const unread: { id: string; toolName: string }[] = [];
  for (const id of state.shownByHandle) {
    const record = await context.outputs.get(id, { sessionId: context.sessionId });
    if (record.readCount === 0) unread.push({ id, toolName: record.toolName });
  }
  const tools = context.surface
    .tools()
    .map((t) => t.name)
    .join(" or ");
  const quoted = unread.find((o) => report.includes(o.id));
  if (quoted && state.reportIdHolds < ID_HOLDS) {
    state.reportIdHolds++;
    // The once-a-run note adds nothing after these.
    state.reportHeldUnread = true;
    return [
      `Not delivered: your report gives ${quoted.id} as a value, but ${quoted.id} is only the name of the stored output of ${quoted.toolName}, not something it holds, and you have not read it.`,
      `Read it first with ${tools}, as its tool result shows, asking for what your task asks; then report what that read returns.`,
    ].join("\n");
  }
  // One read of any of them: the model has looked at what it stored.
  if (state.reportHeldUnread || unread.length < state.shownByHandle.size || unread.length === 0)
    return undefined;
  state.reportHeldUnread = true;
  const named = unread
    .slice(0, NAMED)
    .map((o) => `${o.id} (the output of ${o.toolName})`)
    .join(", ");
  const more = unread.length > NAMED ? ` and ${unread.length - NAMED} more` : "";
  return [
    `Not delivered yet: you have not read ${named}${more}. Its content is not in your context, and its id is only a name for it, not a value from it.`,
    `If your task needs what it holds, read it now with ${tools}, as its tool result shows, and report what the read returns.`,
    "If your report does not depend on it, call agent__final_report again with the same report.",
  ].join("\n");
}
