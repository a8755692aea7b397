/**
 * A text too large to hold as one string: read piece by piece, then released. MCP results of
 * hundreds of MB arrive this way (providers/mcp/spilled-text.ts) and are streamed into the
 * store as they are read.
 */
export interface TextStream {
  /** Its length in UTF-8 bytes as received (lone surrogates count 3 bytes each). */
  readonly byteLength: number;
  /** The text in order, in pieces that never split a surrogate pair. */
  chunks(): AsyncIterable<string>;
  /** Frees what holds the text (a file); reading afterwards fails. */
  release(): Promise<void>;
}

/** True for a {@link TextStream} (duck-typed: it may come from another copy of the package). */
export function isTextStream(value: unknown): value is TextStream {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as TextStream).chunks === "function" &&
    typeof (value as TextStream).release === "function"
  );
}

/**
 * Strings and text streams read as one stream, `separator` between them.
 *
 * @example
 * for await (const piece of joinText(["head", bigStream], "\n")) sink.write(piece);
 */
export async function* joinText(
  parts: readonly (string | TextStream)[],
  separator: string,
): AsyncGenerator<string> {
  for (const [i, part] of parts.entries()) {
    if (i > 0 && separator.length > 0) yield separator;
    if (typeof part === "string") {
      if (part.length > 0) yield part;
    } else {
      yield* part.chunks();
    }
  }
}

/**
 * `JSON.stringify(value, null, indent)` as a stream, for a value whose long strings are
 * {@link TextStream}s: the same text, but each long string is escaped piece by piece as it is
 * read, never held whole.
 *
 * @example
 * for await (const piece of stringifyWithStreams({ content: bigStream }, 2)) write(piece);
 */
export async function* stringifyWithStreams(
  value: unknown,
  indent: number,
): AsyncGenerator<string> {
  const streams: TextStream[] = [];
  const marker = `\u0000stream-${Math.random().toString(36).slice(2)}-`;
  const json = JSON.stringify(
    value,
    (_key, item: unknown) => {
      if (!isTextStream(item)) return item;
      streams.push(item);
      return `${marker}${streams.length - 1}`;
    },
    indent,
  );
  if (json === undefined) return;
  const escapedMarker = JSON.stringify(marker).slice(1, -1);
  const pattern = new RegExp(
    `"${escapedMarker.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&")}(\\d+)"`,
    "g",
  );
  let from = 0;
  for (const match of json.matchAll(pattern)) {
    yield json.slice(from, match.index);
    yield '"';
    for await (const piece of streams[Number(match[1])]!.chunks()) {
      yield JSON.stringify(piece).slice(1, -1);
    }
    yield '"';
    from = match.index + match[0].length;
  }
  yield json.slice(from);
}
