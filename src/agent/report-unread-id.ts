/**
 * The report guard's check for an output's id given as a value (SW-25 and SW-64 in
 * docs/architecture.md): an id is the name spillway gave a stored output, never what it holds.
 */
import { escapeRegExp } from "../core/escape-regexp.js";
import type { SessionContext } from "./session-context.js";

/** An output shown by handle that no read has opened. */
export interface UnreadOutput {
  readonly id: string;
  readonly toolName: string;
}

/** An unread output's id as a report wrote it. */
export interface GivenId {
  readonly output: UnreadOutput;
  /** The id, or its random part, exactly as the report wrote it. */
  readonly given: string;
}

/** What reads returned and outputs shown whole showed, fetched only when needed. */
export type ReturnedTexts = () => Promise<readonly string[]>;

/** The outputs shown by handle and never read. */
export async function unreadOutputs(context: SessionContext): Promise<UnreadOutput[]> {
  const unread: UnreadOutput[] = [];
  for (const id of context.state.shownByHandle) {
    const record = await context.outputs.get(id, { sessionId: context.sessionId });
    if (record.readCount === 0) unread.push({ id, toolName: record.toolName });
  }
  return unread;
}

/**
 * The unread outputs' ids the report gives, each as written. An id whose random part a tool
 * result showed is left out: there the report may be quoting content made from the id (a tool
 * that echoed it, a file that holds it), and a report quoting what a tool returned is never sent
 * back.
 *
 * @example
 * await unreadIdsGiven("The id is 84H1PDGZ…", unread, async () => []);
 * // [{ output: { id: "out_84h1pdgz…", toolName: "fs__read_text_file" }, given: "84H1PDGZ…" }]
 */
export async function unreadIdsGiven(
  report: string,
  unread: readonly UnreadOutput[],
  returned: ReturnedTexts,
): Promise<GivenId[]> {
  const given: GivenId[] = [];
  for (const output of unread) {
    const written = idAsWritten(report, output.id);
    if (written === undefined) continue;
    const part = randomPart(output.id).toLowerCase();
    if ((await returned()).some((text) => text.toLowerCase().includes(part))) continue;
    given.push({ output, given: written });
  }
  return given;
}

/** The note for a report that gives an unread output's id as a value, or undefined. */
export async function idGivenAsValue(
  context: SessionContext,
  report: string,
  unread: readonly UnreadOutput[],
  returned: ReturnedTexts,
): Promise<string | undefined> {
  const [first] = await unreadIdsGiven(report, unread, returned);
  return first === undefined ? undefined : idNote(context, first);
}

/** The shortest random part of an id matched without its prefix. */
const MIN_ID_PART = 8;

/** An id's random part: what follows its prefix (`out_`), or the whole id when it has none. */
const randomPart = (id: string) => id.slice(id.indexOf("_") + 1);

/**
 * How the report writes an output's id, in any letter case, as a word of its own (not inside a
 * longer run of letters, marks or digits): whole, or its random part alone (`84h1pdgz…` for
 * `out_84h1pdgz…`). The random part is as much spillway's name for the output as the whole id,
 * and a model that drops the prefix still answers with a name, not a value. A part under 8
 * characters (ids a test chose) counts only with its prefix.
 */
export function idAsWritten(report: string, id: string): string | undefined {
  const part = randomPart(id);
  const prefix = escapeRegExp(id.slice(0, id.length - part.length));
  const name = part.length >= MIN_ID_PART ? `(?:${prefix})?` : prefix;
  const word = new RegExp(`(?<!${WORD_CHAR})${name}${escapeRegExp(part)}(?!${WORD_CHAR})`, "iu");
  return word.exec(report)?.[0];
}

/** A character that continues a word: a letter, a combining mark or a digit. */
const WORD_CHAR = "[\\p{L}\\p{M}\\p{N}]";

/** The note sending back a report that gives an unread output's id as a value. */
function idNote(context: SessionContext, { output, given }: GivenId): string {
  const whole = given.toLowerCase() === output.id.toLowerCase();
  const nameClause = whole ? given : `${given} is part of ${output.id}, which`;
  return [
    `Not delivered: your report gives ${given} as a value, but ${nameClause} is only the name of the stored output of ${output.toolName}, not something it holds, and you have not read it.`,
    `Read it first with ${readTools(context)}, as its tool result shows, asking for what your task asks; then report what that read returns.`,
  ].join("\n");
}

/** The read tools' names, as a note names them. */
const readTools = (context: SessionContext) =>
  context.surface
    .tools()
    .map((t) => t.name)
    .join(" or ");
