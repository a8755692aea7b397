import { renderJson } from "../render.js";
import type { SurfaceContext } from "../surface.js";
import { readerFor } from "./read.js";
import { getToolOutputCall, type ReadArgs } from "./schema.js";

/** mode="json": a JSONPath query's matches (paged by offset), or the document's outline. */
export async function jsonMode(args: ReadArgs, context: SurfaceContext): Promise<string> {
  const result = await readerFor(
    args.id,
    context,
  )({
    mode: "json",
    maxChars: context.maxChars,
    ...(args.json_query !== undefined && args.outline !== true
      ? { query: args.json_query }
      : { outline: true }),
    ...(args.offset !== undefined ? { offset: args.offset } : {}),
  });
  return renderJson(result, (offset) =>
    getToolOutputCall({ id: args.id, mode: "json", json_query: args.json_query, offset }),
  );
}
