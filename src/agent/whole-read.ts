/**
 * A part asked for never hides the rest (SW-30 in docs/architecture.md). A model told that results
 * are stored whole still passes the arguments a tool offers to return less (the first or last N
 * lines, at most N results), then answers from the part as if it were the whole. For a tool
 * whose server declares it read-only, a call that sets optional numeric arguments is made again
 * without them; when that whole result holds the part, the whole is what the call returns, stored
 * and searchable, and the handle message says which arguments were not applied. Which arguments
 * limit is read from the schema (optional, numeric), never from a list of names; a call whose
 * wider result does not hold the part (a page number, an index) returns the part, as asked.
 */
import { isTextStream, type TextStream } from "../core/text-stream.js";
import type { ToolOutcome } from "./tool-types.js";

type JsonSchema = Readonly<Record<string, unknown>>;
type Content = Extract<ToolOutcome, { type: "content" }>;

const isNumeric = (property: unknown): boolean => {
  if (typeof property !== "object" || property === null) return false;
  const type = (property as { type?: unknown }).type;
  const types = Array.isArray(type) ? type : [type];
  return types.some((t) => t === "integer" || t === "number");
};

/**
 * The optional numeric arguments a call sets: what a read-only tool offers to return less.
 *
 * @example
 * limitingArguments({ properties: { path: { type: "string" }, tail: { type: "number" } }, required: ["path"] }, { path: "a.log", tail: 10 });
 * // ["tail"]
 */
export function limitingArguments(schema: JsonSchema, args: unknown): string[] {
  if (typeof args !== "object" || args === null) return [];
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.keys(args).filter(
    (name) =>
      !required.has(name) &&
      isNumeric(properties[name]) &&
      (args as Record<string, unknown>)[name] != null,
  );
}

/** Whether the server declares the tool read-only (MCP's `annotations.readOnlyHint`). */
export function declaredReadOnly(definition: JsonSchema): boolean {
  const annotations = definition.annotations;
  return (
    typeof annotations === "object" &&
    annotations !== null &&
    (annotations as { readOnlyHint?: unknown }).readOnlyHint === true
  );
}

/** Line breaks as a line feed: `\r\n` and a lone `\r` alike. */
const lineFeeds = (text: string) => text.replace(/\r\n?/g, "\n");

/**
 * Whether `whole` holds `part`, whatever line breaks each was written with: a server may
 * normalize the breaks of the part it cuts (the last lines of a CRLF file, returned with line
 * feeds) and not those of the whole. A stream is read piece by piece, the boundaries overlapping,
 * a piece's final `\r` held back until the next shows whether a `\n` follows it.
 */
async function holds(whole: string | TextStream, part: string): Promise<boolean> {
  const needle = lineFeeds(part.trim());
  if (needle === "") return true;
  if (!isTextStream(whole)) return lineFeeds(whole).includes(needle);
  let carried = "";
  for await (const piece of whole.chunks()) {
    const raw = carried + piece;
    const held = raw.endsWith("\r") ? 1 : 0;
    const text = lineFeeds(raw.slice(0, raw.length - held));
    if (text.includes(needle)) return true;
    carried =
      text.slice(Math.max(0, text.length - needle.length + 1)) + raw.slice(raw.length - held);
  }
  return lineFeeds(carried).includes(needle);
}

const lengthOf = (text: string | TextStream | undefined) =>
  text === undefined ? 0 : isTextStream(text) ? text.byteLength : Buffer.byteLength(text);

const release = async (outcome: ToolOutcome) => {
  if (outcome.type === "content" && isTextStream(outcome.text)) await outcome.text.release();
};

/**
 * Runs a read-only tool's call whole when it asked for a part: `run(args)` calls the tool. The
 * part's result is returned when the call sets no limiting argument, when either call fails, when
 * a result carries binary content, or when the whole does not hold the part.
 *
 * @example
 * const outcome = await readWhole(schema, { path: "app.log", tail: 10 }, (args) => callTool(args));
 * // the whole file, with lifted: { arguments: ["tail"], argsText: '{"path":"app.log"}' }
 */
export async function readWhole(
  schema: JsonSchema,
  args: unknown,
  run: (args: unknown) => Promise<ToolOutcome>,
): Promise<ToolOutcome> {
  const limits = limitingArguments(schema, args);
  const part = await run(args);
  if (limits.length === 0 || !isPlainText(part) || typeof part.text !== "string") return part;
  const wider = Object.fromEntries(
    Object.entries(args as Record<string, unknown>).filter(([name]) => !limits.includes(name)),
  );
  let whole: ToolOutcome;
  try {
    whole = await run(wider);
  } catch {
    return part;
  }
  const partText = part.text;
  if (
    !isPlainText(whole) ||
    lengthOf(whole.text) <= Buffer.byteLength(partText) ||
    !(await holds(whole.text!, partText).catch(() => false))
  ) {
    await release(whole);
    return part;
  }
  return { ...whole, lifted: { arguments: limits, argsText: JSON.stringify(wider) } };
}

/** A successful result of text only, the part held as a string. */
function isPlainText(outcome: ToolOutcome): outcome is Content {
  return (
    outcome.type === "content" &&
    !outcome.isError &&
    outcome.text !== undefined &&
    (outcome.binary ?? []).length === 0
  );
}
