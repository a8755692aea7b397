/**
 * `outputs slice`: part of an output by characters, lines or a literal anchor. The text goes
 * to stdout exactly; a one-line provenance header goes to stderr.
 */
import { readOutput } from "../retrieval/read-output.js";
import type { SliceRequest, SliceResult } from "../retrieval/slice.js";
import { type CliContext, OWNER_SCOPE, withStore } from "./context.js";
import { EXIT_OK, UsageError } from "./errors.js";
import { formatCount, provenanceLine, shortSha } from "./format.js";
import type { LineRange } from "./option-parsers.js";

export interface SliceOptions {
  readonly start?: number;
  readonly length?: number;
  readonly lines?: LineRange;
  readonly lineStart?: number;
  readonly lineEnd?: number;
  readonly anchor?: string;
  readonly window?: number;
  readonly matchIndex?: number;
}

/** The one addressing style the flags ask for; contradictory flags are a usage error. */
export function sliceRequestOf(options: SliceOptions): SliceRequest {
  const styles: string[] = [];
  if (options.start !== undefined || options.length !== undefined) styles.push("--start/--length");
  if (options.lines !== undefined) styles.push("--lines");
  if (options.lineStart !== undefined || options.lineEnd !== undefined) {
    styles.push("--line-start/--line-end");
  }
  const anchored =
    options.anchor !== undefined ||
    options.window !== undefined ||
    options.matchIndex !== undefined;
  if (anchored) styles.push("--anchor/--window/--match-index");
  if (styles.length > 1) {
    throw new UsageError(
      `slice takes one addressing style, got ${styles.join(" and ")}: use --start/--length ` +
        "(characters), --lines A:B or --line-start/--line-end (lines), or --anchor TEXT " +
        "[--window N] [--match-index K]",
    );
  }
  if (anchored && options.anchor === undefined) {
    throw new UsageError("--window and --match-index need --anchor TEXT");
  }
  if (options.lineEnd !== undefined && options.lineStart === undefined) {
    throw new UsageError("--line-end needs --line-start");
  }
  if (options.lines) return { lineStart: options.lines.lineStart, lineEnd: options.lines.lineEnd };
  return {
    ...(options.start !== undefined ? { start: options.start } : {}),
    ...(options.length !== undefined ? { length: options.length } : {}),
    ...(options.lineStart !== undefined ? { lineStart: options.lineStart } : {}),
    ...(options.lineEnd !== undefined ? { lineEnd: options.lineEnd } : {}),
    ...(options.anchor !== undefined ? { anchor: options.anchor } : {}),
    ...(options.window !== undefined ? { window: options.window } : {}),
    ...(options.matchIndex !== undefined ? { matchIndex: options.matchIndex } : {}),
  };
}

/** The stderr header of a found slice. */
function sliceHeader(result: SliceResult & { found: true }): string {
  if (result.encoding === "base64") {
    const p = result.provenance;
    return (
      `# ${p.outputId} bytes ${p.byteStart}-${p.byteEnd} of ${p.totalBytes} (binary, shown as base64) ` +
      `sha256 ${shortSha(p.sha256)}`
    );
  }
  const anchor = result.anchor
    ? ` anchor ${JSON.stringify(result.anchor.anchor)} match ${result.anchor.matchIndex} ` +
      `(0-based) of ${result.anchor.occurrences} at char ${result.anchor.anchorCharStart}`
    : "";
  return provenanceLine(result.provenance) + anchor;
}

export async function sliceOutput(
  context: CliContext,
  id: string,
  options: SliceOptions,
): Promise<number> {
  const request = sliceRequestOf(options);
  const result = await withStore(context, (store) =>
    readOutput(store, id, OWNER_SCOPE, { mode: "slice", ...request }),
  );
  if (context.json) {
    await context.out.json(result);
    return EXIT_OK;
  }
  if (!result.found) {
    const which =
      result.matchIndex === 0
        ? `anchor ${JSON.stringify(result.anchor)} not found`
        : `occurrence ${result.matchIndex} (0-based --match-index) of anchor ${JSON.stringify(result.anchor)} not found`;
    const valid =
      result.occurrences > 0 ? `; valid --match-index: 0 to ${result.occurrences - 1}` : "";
    context.out.note(
      `# ${which} in ${result.outputId}: it occurs ${formatCount(result.occurrences)} ` +
        `time${result.occurrences === 1 ? "" : "s"}${valid}`,
    );
    return EXIT_OK;
  }
  context.out.note(sliceHeader(result));
  await context.out.writeText(result.text);
  return EXIT_OK;
}
