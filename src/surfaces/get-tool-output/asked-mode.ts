import type { GetToolOutputArgs } from "./schema.js";

type Mode = GetToolOutputArgs["mode"];

/**
 * What aims a read of each mode at a part of the output: a slice's position, a page's cursor or
 * size, a grep's text, a search's words. A call of one of these modes with none of its own aim
 * would read from the start, which answers no question the call asked.
 */
const AIM: Partial<Record<Mode, (args: GetToolOutputArgs) => boolean>> = {
  slice: (args) => args.slice !== undefined && Object.keys(args.slice).length > 0,
  page: (args) => args.cursor !== undefined || args.max_tokens !== undefined,
  grep: (args) => Boolean(args.pattern),
  search: (args) => Boolean(args.query),
};

/** The words a call may carry, and the mode that reads them: the first present one wins. */
const WORDS: readonly ["query" | "pattern", Mode][] = [
  ["query", "search"],
  ["pattern", "grep"],
];

/** A call read in the mode its arguments ask for, and the line that says so ("" when unchanged). */
export interface AskedMode {
  readonly args: GetToolOutputArgs;
  readonly note: string;
}

/**
 * The mode a call's arguments ask for: a call named slice, page, grep or search that carries
 * none of that mode's own aim but the words of another (search's `query`, grep's `pattern`) is
 * read in the mode of those words, with a line saying so. The words say what the call is for;
 * the mode's name alone would read the start of the output and leave the words unused, and a
 * model that sent them repeats the call rather than renaming the mode (docs/architecture.md,
 * SW-63).
 *
 * @example
 * modeTheArgumentsAsk({ id: "out_1", mode: "slice", slice: {}, query: "refund" }).args.mode; // "search"
 * modeTheArgumentsAsk({ id: "out_1", mode: "slice", slice: { line_start: 9 }, query: "x" }).note; // ""
 */
export function modeTheArgumentsAsk(args: GetToolOutputArgs): AskedMode {
  const aimed = AIM[args.mode];
  if (aimed === undefined || aimed(args)) return { args, note: "" };
  for (const [key, mode] of WORDS) {
    const words = args[key];
    if (mode === args.mode || typeof words !== "string" || words.trim() === "") continue;
    const asked: GetToolOutputArgs = { ...args, mode };
    // A slice call's position here is the empty one its flattening gave it: nothing to pass on.
    if (args.mode === "slice") delete asked.slice;
    return {
      args: asked,
      note: `[Read as mode="${mode}": mode="${args.mode}" was given no ${aimName(args.mode)}, and ${key} is the ${key === "query" ? "words of a search" : "text of a grep"}.]\n`,
    };
  }
  return { args, note: "" };
}

function aimName(mode: Mode): string {
  if (mode === "slice") return "position";
  if (mode === "page") return "cursor";
  if (mode === "grep") return "pattern";
  return "query";
}
