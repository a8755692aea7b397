/**
 * `outputs page`: one page of an output to stdout, exactly; provenance and the next cursor to
 * stderr. Following the cursor to the end reproduces the output byte for byte.
 */
import type { PageResult } from "../retrieval/page.js";
import { readOutput } from "../retrieval/read-output.js";
import { type CliContext, OWNER_SCOPE, withStore } from "./context.js";
import { EXIT_OK } from "./errors.js";
import { formatCount, provenanceLine, shellQuote, shortSha } from "./format.js";

export interface PageOptions {
  readonly cursor?: number;
  readonly chars?: number;
  readonly tokens?: number;
}

function pageNotes(result: PageResult, id: string, options: PageOptions, home?: string): string[] {
  const where =
    result.encoding === "base64"
      ? `# ${result.provenance.outputId} bytes ${result.provenance.byteStart}-${result.provenance.byteEnd} ` +
        `of ${result.provenance.totalBytes} (binary, shown as base64) sha256 ${shortSha(result.provenance.sha256)}`
      : provenanceLine(result.provenance) +
        ("tokens" in result && result.tokens !== undefined
          ? ` tokens ${formatCount(result.tokens)}`
          : "");
  if (result.nextCursor === null) return [where, "# last page"];
  const flags = [
    ...(home !== undefined ? ["--home", shellQuote(home)] : []),
    "--cursor",
    String(result.nextCursor),
    ...(options.chars !== undefined ? ["--chars", String(options.chars)] : []),
    ...(options.tokens !== undefined ? ["--tokens", String(options.tokens)] : []),
  ];
  return [
    where,
    `# next cursor ${result.nextCursor}: spillway outputs page ${id} ${flags.join(" ")}`,
  ];
}

export async function pageCommand(
  context: CliContext,
  id: string,
  options: PageOptions,
): Promise<number> {
  const result = await withStore(context, (store) =>
    readOutput(store, id, OWNER_SCOPE, {
      mode: "page",
      ...(options.cursor !== undefined ? { cursor: options.cursor } : {}),
      ...(options.chars !== undefined ? { maxChars: options.chars } : {}),
      ...(options.tokens !== undefined ? { maxTokens: options.tokens } : {}),
    }),
  );
  if (context.json) {
    await context.out.json(result);
    return EXIT_OK;
  }
  for (const note of pageNotes(
    result,
    id,
    options,
    context.explicitHome ? context.home : undefined,
  )) {
    context.out.note(note);
  }
  await context.out.writeText(result.text);
  return EXIT_OK;
}
