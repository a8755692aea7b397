import { renderPage } from "../render.js";
import type { SurfaceContext } from "../surface.js";
import { readerFor } from "./read.js";
import { getToolOutputCall, type ReadArgs } from "./schema.js";

/** mode="page": the output in order from a cursor, a page that fits, and the next call. */
export async function pageMode(args: ReadArgs, context: SurfaceContext): Promise<string> {
  const result = await readerFor(
    args.id,
    context,
  )({
    mode: "page",
    cursor: args.cursor ?? 0,
    maxChars: context.maxChars,
    ...(args.max_tokens !== undefined
      ? { maxTokens: args.max_tokens, tokenizer: context.tokenizer }
      : {}),
  });
  const next =
    result.nextCursor === null
      ? undefined
      : getToolOutputCall({
          id: args.id,
          mode: "page",
          cursor: result.nextCursor,
          ...(args.max_tokens ? { max_tokens: args.max_tokens } : {}),
        });
  return renderPage(result, next);
}
