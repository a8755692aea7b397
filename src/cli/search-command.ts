/**
 * `outputs search`: the lines of an output (or, with --session, of every output of a session)
 * that best match some words, best first, as `SCORE  LINE: text` rows (`SCORE  OUTPUT:LINE:
 * text` for a session); a header and notes on stderr. Stored text is printed with its control
 * characters escaped.
 */
import { readOutput } from "../retrieval/read-output.js";
import type { SearchMatch, SearchResult, SearchSummary } from "../retrieval/search.js";
import type { SearchRanking } from "../retrieval/search-corpus.js";
import { type SessionSearchResult, searchSession } from "../retrieval/search-session.js";
import { type CliContext, OWNER_SCOPE, withStore } from "./context.js";
import { EXIT_OK, UsageError } from "./errors.js";
import { formatCount } from "./format.js";
import { printable } from "./terminal-text.js";

export interface SearchOptions {
  readonly session?: string;
  readonly max?: number;
  readonly timeoutMs?: number;
  readonly ranking?: SearchRanking;
  readonly latestFirst?: boolean;
}

/** `17.23  4812: text` (with the output id first when `withOutput`). */
export function renderSearchRows(matches: readonly SearchMatch[], withOutput: boolean): string[] {
  const width = Math.max(0, ...matches.map((m) => m.score.toFixed(2).length));
  return matches.map((match) => {
    const where = withOutput ? `${match.outputId}:${match.line}` : String(match.line);
    const text = match.clipped ? `…${match.text}…` : match.text;
    return `${match.score.toFixed(2).padStart(width)}  ${where}: ${printable(text)}`;
  });
}

/** The stderr lines: what was searched, the words and their counts, and what limited it. */
function notes(summary: SearchSummary, where: string): string[] {
  const words = summary.terms.map((t) => `${printable(t.term)}: ${formatCount(t.lines)}`);
  const count = summary.matchingLines;
  const out = [
    `# ${formatCount(count)} matching line${count === 1 ? "" : "s"} in ${where} (lines holding each word: ${words.join(", ")}); best first, score then line${summary.latestFirst ? " from the end" : ""}${summary.ranking === "coverage" ? " (coverage ranking)" : ""}`,
  ];
  if (summary.ignoredWords.length > 0)
    out.push(
      `# common words left out: ${summary.ignoredWords.map((word) => printable(word)).join(", ")}`,
    );
  if (summary.droppedWords.length > 0)
    out.push(
      `# words past the first 32 left out: ${summary.droppedWords.map((word) => printable(word)).join(", ")}`,
    );
  if (summary.stopped)
    out.push(
      `# stopped at the ${summary.stopped.timeoutMs} ms deadline: the rest was not searched`,
    );
  if (summary.candidatesDropped > 0)
    out.push(
      `# ${formatCount(summary.candidatesDropped)} lowest-scoring lines dropped before ranking`,
    );
  if (summary.windowed) out.push("# lines over 4 MiB were searched in windows");
  return out;
}

/**
 * Runs `outputs search <id> <query>` or `outputs search --session <id> <query>`. `first` is the
 * output id, or the query when --session is given.
 */
export async function searchCommand(
  context: CliContext,
  first: string,
  second: string | undefined,
  options: SearchOptions,
): Promise<number> {
  const session = options.session;
  const query = session !== undefined ? first : second;
  if (session !== undefined && second !== undefined)
    throw new UsageError(
      `outputs search --session ${session} takes only the words to find (got an id too: ${first}); quote the words as one argument.`,
    );
  if (query === undefined)
    throw new UsageError(
      'outputs search needs the words to find: spillway outputs search <id> "boot marker", or --session <id> "boot marker".',
    );
  const request = {
    query,
    ...(options.max !== undefined ? { maxResults: options.max } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.ranking !== undefined ? { ranking: options.ranking } : {}),
    ...(options.latestFirst ? { latestFirst: true } : {}),
  };
  const result = await withStore<SearchResult | SessionSearchResult>(context, (store) =>
    session !== undefined
      ? searchSession(store, session, OWNER_SCOPE, request)
      : readOutput(store, first, OWNER_SCOPE, { mode: "search", ...request }),
  );
  if (context.json) {
    await context.out.json(result);
    return EXIT_OK;
  }
  await context.out.lines(renderSearchRows(result.matches, session !== undefined));
  const where =
    "outputId" in result
      ? result.outputId
      : `${formatCount(result.outputsSearched)} outputs of session ${printable(session ?? "")}`;
  for (const line of notes(result, where)) context.out.note(line);
  if ("outputsSkipped" in result && result.outputsSkipped.length > 0) {
    const skipped = result.outputsSkipped.map((s) => `${s.outputId} (${s.reason})`);
    context.out.note(`# not searched: ${skipped.join(", ")}`);
  }
  return EXIT_OK;
}
