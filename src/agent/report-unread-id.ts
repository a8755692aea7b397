/**
 * The report guard's check for an output's id given as a value (SW-25 in
 * docs/architecture.md): an id is the name spillway gave a stored output, never what it holds.
 */
import { escapeRegExp } from "../core/escape-regexp.js";
import type { SessionContext } from "./session-context.js";

/** An output shown by handle that no read has opened. */
export interface UnreadOutput {
  readonly id: string;
  readonly toolName: string;
}

/** The outputs shown by handle and never read. */
export async function unreadOutputs(context: SessionContext): Promise<UnreadOutput[]> {
  const unread: UnreadOutput[] = [];
  for (const id of context.state.shownByHandle) {
    const record = await context.outputs.get(id, { sessionId: context.sessionId });
    if (record.readCount === 0) unread.push({ id, toolName: record.toolName });
  }
  return unread;
}

/** The read tools' names, as a note names them. */
const readTools = (context: SessionContext) =>
  context.surface
    .tools()
    .map((t) => t.name)
    .join(" or ");

/** The report gives an unread output's id as a value, whole or without its prefix. */
export function idGivenAsValue(
  context: SessionContext,
  report: string,
  unread: readonly UnreadOutput[],
): string | undefined {
  for (const output of unread) {
    const given = idAsWritten(report, output.id);
    if (given !== undefined) return idNote(context, output, given);
  }
  return undefined;
}

/**
 * How the report writes an output's id: whole, or its random part alone as a word of its own
 * (`84h1pdgz…` for `out_84h1pdgz…`). The random part is as much spillway's name for the output
 * as the whole id, and a model that drops the prefix still answers with a name, not a value. A
 * part under 8 characters (ids a test chose) is matched only whole.
 */
export function idAsWritten(report: string, id: string): string | undefined {
  if (report.includes(id)) return id;
  const part = id.slice(id.indexOf("_") + 1);
  if (part.length < MIN_ID_PART || part === id) return undefined;
  const alone = new RegExp(`(?<![\\p{L}\\p{N}_])${escapeRegExp(part)}(?![\\p{L}\\p{N}_])`, "iu");
  return alone.exec(report)?.[0];
}

/** The shortest random part of an id matched without its prefix. */
const MIN_ID_PART = 8;

/** The note sending back a report that gives an unread output's id (`given`) as a value. */
function idNote(context: SessionContext, output: UnreadOutput, given: string): string {
  const what = given === output.id ? given : `${given} is part of ${output.id}, which`;
  return [
    `Not delivered: your report gives ${given} as a value, but ${what} is only the name of the stored output of ${output.toolName}, not something it holds, and you have not read it.`,
    `Read it first with ${readTools(context)}, as its tool result shows, asking for what your task asks; then report what that read returns.`,
  ].join("\n");
}
