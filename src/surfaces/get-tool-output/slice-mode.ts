import { isSpillwayError } from "../../core/errors.js";
import { renderPage, renderSlice } from "../render.js";
import type { SurfaceContext } from "../surface.js";
import { nothingFoundHint } from "./nothing-found.js";
import { readerFor } from "./read.js";
import { getToolOutputCall, type ReadArgs } from "./schema.js";

type SliceArgs = NonNullable<ReadArgs["slice"]>;

/** Text around a literal anchor, with the window shrunk to what fits. */
async function anchorSlice(
  id: string,
  s: SliceArgs & { anchor: string },
  context: SurfaceContext,
): Promise<string> {
  const { maxChars } = context;
  const window = Math.min(
    s.window ?? 1000,
    Math.max(0, Math.floor((maxChars - s.anchor.length) / 2)),
  );
  const result = await readerFor(
    id,
    context,
  )({
    mode: "slice",
    anchor: s.anchor,
    window,
    ...(s.match_index !== undefined ? { matchIndex: s.match_index } : {}),
    maxChars,
  });
  const hint =
    !result.found && result.occurrences === 0 ? await nothingFoundHint(id, s.anchor, context) : "";
  return renderSlice(result) + hint;
}

/** Lines by number; lines too long for the budget are shown page by page, and it says so. */
async function lineSlice(id: string, s: SliceArgs, context: SurfaceContext): Promise<string> {
  const { maxChars } = context;
  const read = readerFor(id, context);
  try {
    return renderSlice(
      await read({
        mode: "slice",
        ...(s.line_start !== undefined ? { lineStart: s.line_start } : { lineStart: 1 }),
        ...(s.line_end !== undefined ? { lineEnd: s.line_end } : {}),
        maxChars,
      }),
    );
  } catch (error) {
    if (!isSpillwayError(error, "RANGE_TOO_LARGE") || typeof error.details.cursor !== "number")
      throw error;
    const page = await read({ mode: "page", cursor: error.details.cursor, maxChars });
    const next =
      page.nextCursor === null
        ? undefined
        : getToolOutputCall({ id, mode: "page", cursor: page.nextCursor });
    return `[the requested lines hold more than ${maxChars.toLocaleString("en-US")} characters, more than fits now; showing them page by page]\n${renderPage(page, next)}`;
  }
}

/** Characters from `start`; a range larger than fits is shown in part, with the call for the rest. */
async function charSlice(id: string, s: SliceArgs, context: SurfaceContext): Promise<string> {
  const { maxChars } = context;
  const start = s.start ?? 0;
  const wanted = s.length ?? 4000;
  const length = Math.min(wanted, maxChars);
  const result = await readerFor(id, context)({ mode: "slice", start, length, maxChars });
  const end =
    result.found && "charEnd" in result.provenance ? result.provenance.charEnd : start + length;
  const total =
    result.found && "totalChars" in result.provenance ? result.provenance.totalChars : 0;
  const more =
    length < wanted && end < Math.min(total, start + wanted)
      ? getToolOutputCall({
          id,
          mode: "slice",
          slice: { start: end, length: start + wanted - end },
        })
      : undefined;
  return renderSlice(result, more);
}

/** mode="slice": by anchor, by lines, or by characters (in that order of precedence). */
export async function sliceMode(args: ReadArgs, context: SurfaceContext): Promise<string> {
  const s = args.slice ?? {};
  if (s.anchor !== undefined) return anchorSlice(args.id, { ...s, anchor: s.anchor }, context);
  if (s.line_start !== undefined || s.line_end !== undefined) return lineSlice(args.id, s, context);
  return charSlice(args.id, s, context);
}
