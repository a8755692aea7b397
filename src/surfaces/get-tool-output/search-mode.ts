import { SpillwayError } from "../../core/errors.js";
import { DEFAULT_SEARCH_RESULTS, MAX_SEARCH_RESULTS } from "../../retrieval/search.js";
import { searchSession } from "../../retrieval/search-session.js";
import { renderSessionSearch } from "../render-search.js";
import type { SurfaceContext } from "../surface.js";
import { readerFor, withOpened } from "./read.js";
import { type GetToolOutputArgs, getToolOutputCall, missingArgument } from "./schema.js";
import { renderSearchRecords } from "./search-records.js";
import { tiesByRecord } from "./search-ties.js";

/**
 * mode="search": the lines that best match the query's words (BM25), best first; with an id in
 * that output, each inside its record
 * (search-records.ts), equal lines ordered by how much of the query their records hold
 * (search-ties.ts); without one, in every output of the session (those out of the context
 * included).
 */
export async function searchMode(
  args: GetToolOutputArgs,
  context: SurfaceContext,
): Promise<string> {
  if (!args.query) {
    // A pattern sent to search is the words it meant: say so with the call that takes it.
    const pattern = args.pattern
      ? ` pattern belongs to mode="grep"; as a search: ${getToolOutputCall({ id: args.id, mode: "search", query: args.pattern })}.`
      : "";
    throw missingArgument(
      `mode="search" needs query: the words to find, as you would write them, in any language.${pattern}`,
    );
  }
  const request = {
    query: args.query,
    ...(args.max_results !== undefined ? { maxResults: args.max_results } : {}),
  };
  if (args.id !== undefined) {
    const id = args.id;
    const keep = args.max_results ?? DEFAULT_SEARCH_RESULTS;
    // Every line the search keeps is ranked, so equal lines past the cut can be weighed by their
    // records (search-ties.ts); a count out of range goes as given, for the search's own error.
    const valid = Number.isInteger(keep) && keep >= 1 && keep <= MAX_SEARCH_RESULTS;
    const result = await readerFor(
      id,
      context,
    )({
      mode: "search",
      ...request,
      ...(valid ? { maxResults: MAX_SEARCH_RESULTS } : {}),
    });
    return withOpened(id, context, async (opened) => {
      const matches = await tiesByRecord(opened, result, keep);
      return renderSearchRecords({ ...result, matches }, opened, context.maxChars);
    });
  }
  if (!("sessionId" in context.scope)) {
    throw new SpillwayError(
      "INVALID_ARGUMENT",
      'mode="search" without an id searches the current session, and this read has none: give the id of an output.',
      { argument: "id" },
      { fault: "model" },
    );
  }
  const sessionId = context.scope.sessionId;
  const result = await searchSession(context.outputs, sessionId, context.scope, request);
  return renderSessionSearch(result, context.maxChars);
}
