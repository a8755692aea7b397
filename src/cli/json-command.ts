/**
 * `outputs json`: the outline of a JSON/NDJSON output, or JSONPath matches as
 * `path = value` lines (values JSON-serialized), with a footer giving the total and the next
 * offset.
 */
import type { JsonResult } from "../retrieval/json.js";
import { readOutput } from "../retrieval/read-output.js";
import { type CliContext, OWNER_SCOPE, withStore } from "./context.js";
import { EXIT_OK, UsageError } from "./errors.js";
import { formatCount, shellQuote } from "./format.js";

export interface JsonOptions {
  readonly outline?: boolean;
  readonly offset?: number;
  readonly max?: number;
}

/** `$['items'][0]['id'] = "a1"` lines. */
export function renderJsonMatches(result: JsonResult & { kind: "query" }): string[] {
  return result.matches.map((match) => `${match.path} = ${JSON.stringify(match.value) ?? "null"}`);
}

function footer(
  result: JsonResult & { kind: "query" },
  id: string,
  max: number | undefined,
  home?: string,
): string[] {
  const shown = result.matches.length;
  const range =
    shown === 0
      ? `no matches shown of ${formatCount(result.totalMatches)}`
      : `matches ${result.offset + 1}-${result.offset + shown} of ${formatCount(result.totalMatches)}`;
  if (result.nextOffset === null) return [`# ${range} in ${result.outputId}`];
  const flags = [
    ...(home !== undefined ? ["--home", shellQuote(home)] : []),
    ...(max !== undefined ? ["--max", String(max)] : []),
    "--offset",
    String(result.nextOffset),
  ];
  return [
    `# ${range} in ${result.outputId}; next offset ${result.nextOffset}`,
    `# continue: spillway outputs json ${id} ${shellQuote(result.query)} ${flags.join(" ")}`,
  ];
}

export async function jsonCommand(
  context: CliContext,
  id: string,
  query: string | undefined,
  options: JsonOptions,
): Promise<number> {
  if (options.outline && query !== undefined) {
    throw new UsageError("give either a JSONPath query or --outline, not both");
  }
  if (query === undefined && (options.offset !== undefined || options.max !== undefined)) {
    throw new UsageError("--offset and --max page through query matches: give a JSONPath query");
  }
  const result = await withStore(context, (store) =>
    readOutput(store, id, OWNER_SCOPE, {
      mode: "json",
      ...(query !== undefined ? { query } : { outline: true }),
      ...(options.offset !== undefined ? { offset: options.offset } : {}),
      ...(options.max !== undefined ? { maxResults: options.max } : {}),
    }),
  );
  if (context.json) {
    await context.out.json(result);
    return EXIT_OK;
  }
  if (result.kind === "outline") {
    await context.out.lines(result.outline.split("\n"));
    return EXIT_OK;
  }
  await context.out.lines(renderJsonMatches(result));
  for (const line of footer(
    result,
    id,
    options.max,
    context.explicitHome ? context.home : undefined,
  )) {
    context.out.note(line);
  }
  return EXIT_OK;
}
