/**
 * Parsing YAML (frontmatter and config files) with line numbers for later error messages.
 */
import { type Document, isMap, isScalar, isSeq, LineCounter, type Node, parseDocument } from "yaml";
import { type ErrorCode, SpillwayError } from "../core/errors.js";
import type { Locate } from "./problems.js";

/** Parsed data plus a way to find the line of a key path in the text it came from. */
export interface ParsedSource {
  data: unknown;
  locate: Locate;
}

/** Where a YAML text sits, for messages. */
export interface YamlSourceOptions {
  /** The file the text is in. */
  file: string;
  /** The error code for malformed YAML. */
  code: ErrorCode;
  /** What the text is, e.g. "agent file" (in "Invalid agent file …"). */
  subject: string;
  /** Lines in the file before the text (frontmatter starts after the `---` line). */
  lineOffset?: number;
  /** A word for the YAML text in messages, e.g. "frontmatter". */
  part?: string;
}

/** A {@link Locate} over a parsed YAML document; lines count from the start of the file. */
export function yamlLocator(doc: Document, lines: LineCounter, lineOffset = 0): Locate {
  return (path) => {
    let node: unknown = doc.contents;
    let offset = (node as Node | null)?.range?.[0];
    for (const segment of path) {
      if (isMap(node)) {
        const pair = node.items.find(
          (item) => isScalar(item.key) && String(item.key.value) === String(segment),
        );
        if (!pair) break;
        offset = (pair.key as Node).range?.[0] ?? offset;
        node = pair.value;
      } else if (isSeq(node) && typeof segment === "number") {
        const item = node.items[segment] as Node | undefined;
        if (!item) break;
        offset = item.range?.[0] ?? offset;
        node = item;
      } else {
        break;
      }
    }
    return offset === undefined ? undefined : lines.linePos(offset).line + lineOffset;
  };
}

/**
 * Parses YAML; malformed YAML throws `options.code` with the line and column in the file.
 *
 * @example
 * const { data, locate } = parseYamlSource("maxTurns: 5\n", {
 *   file: "/a/agent.md", code: "AGENT_FILE_INVALID", subject: "agent file", lineOffset: 1,
 * });
 * locate(["maxTurns"]); // 2
 */
export function parseYamlSource(text: string, options: YamlSourceOptions): ParsedSource {
  const lineOffset = options.lineOffset ?? 0;
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const part = options.part ? `${options.part} ` : "";
  const error = doc.errors[0];
  if (error) {
    const { line, col } = lines.linePos(error.pos[0]);
    const fileLine = line + lineOffset;
    throw new SpillwayError(
      options.code,
      `Invalid ${options.subject} ${options.file}: malformed YAML ${part}at line ${fileLine}, ` +
        `column ${col}: ${error.message}.`,
      { file: options.file, line: fileLine, column: col, yamlError: error.code },
    );
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new SpillwayError(
      options.code,
      `Invalid ${options.subject} ${options.file}: malformed YAML${options.part ? ` ${options.part}` : ""}: ${reason}.`,
      { file: options.file },
      { cause },
    );
  }
  return { data, locate: yamlLocator(doc, lines, lineOffset) };
}
