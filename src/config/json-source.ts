/**
 * Parsing JSON config text with line numbers: a syntax error names its line and column
 * (Node 20's `JSON.parse` messages do not always give a position), and valid JSON is also
 * read as YAML (a superset) to find the line of a key path.
 */
import { LineCounter, parseDocument } from "yaml";
import { type ErrorCode, SpillwayError } from "../core/errors.js";
import { type ParsedSource, yamlLocator } from "./yaml-source.js";

/** A JSON syntax error: character offset and what was expected there. */
export interface JsonSyntaxError {
  offset: number;
  line: number;
  column: number;
  reason: string;
}

class JsonScanError extends Error {
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** 1-based line and column of a character offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

function scan(text: string): void {
  let at = 0;
  const fail = (reason: string): never => {
    const found =
      at < text.length ? `found ${JSON.stringify(text[at])}` : "found the end of the file";
    throw new JsonScanError(at, `${reason}, ${found}`);
  };
  const space = (): void => {
    while (at < text.length && " \t\n\r".includes(text[at]!)) at++;
  };
  const literal = (word: string): void => {
    if (text.startsWith(word, at)) at += word.length;
    else fail(`expected ${word}`);
  };
  const string = (): void => {
    at++; // opening quote
    for (;;) {
      if (at >= text.length) fail("expected a closing quote");
      const c = text.charCodeAt(at);
      if (c === 34) {
        at++;
        return;
      }
      if (c < 32) fail("expected a closing quote (control characters must be escaped)");
      if (c === 92) {
        at++;
        const e = text[at];
        if (e === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 1, at + 5))) fail("expected 4 hex digits");
          at += 5;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) at++;
        else fail("expected a valid escape");
      } else at++;
    }
  };
  const number = (): void => {
    const match = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(at));
    if (!match || match[0] === "-") fail("expected a value");
    at += match![0].length;
  };
  const value = (): void => {
    space();
    const c = text[at];
    if (c === "{") {
      at++;
      space();
      if (text[at] === "}") {
        at++;
        return;
      }
      for (;;) {
        space();
        if (text[at] !== '"') fail("expected a property name in double quotes");
        string();
        space();
        if (text[at] !== ":") fail('expected ":"');
        at++;
        value();
        space();
        if (text[at] === ",") at++;
        else if (text[at] === "}") {
          at++;
          return;
        } else fail('expected "," or "}"');
      }
    }
    if (c === "[") {
      at++;
      space();
      if (text[at] === "]") {
        at++;
        return;
      }
      for (;;) {
        value();
        space();
        if (text[at] === ",") at++;
        else if (text[at] === "]") {
          at++;
          return;
        } else fail('expected "," or "]"');
      }
    }
    if (c === '"') string();
    else if (c === "t") literal("true");
    else if (c === "f") literal("false");
    else if (c === "n") literal("null");
    else number();
  };
  value();
  space();
  if (at < text.length) fail("expected the end of the document");
}

/**
 * The first syntax error in a JSON text, or `undefined` when it is valid.
 *
 * @example
 * findJsonSyntaxError('{\n  "a": }'); // { offset: 8, line: 2, column: 8, reason: 'expected a value, found "}"' }
 */
export function findJsonSyntaxError(text: string): JsonSyntaxError | undefined {
  try {
    scan(text);
    return undefined;
  } catch (error) {
    if (!(error instanceof JsonScanError)) throw error;
    return { offset: error.offset, ...lineAndColumn(text, error.offset), reason: error.reason };
  }
}

/**
 * Parses JSON; malformed JSON throws `options.code` naming the file, line and column.
 *
 * @example
 * const { data, locate } = parseJsonSource('{"defaults": {"maxTurns": 0}}', {
 *   file: "/p/spillway.config.json", code: "CONFIG_INVALID", subject: "config file",
 * });
 */
export function parseJsonSource(
  text: string,
  options: { file: string; code: ErrorCode; subject: string },
): ParsedSource {
  let data: unknown;
  try {
    data = JSON.parse(text) as unknown;
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    const found = findJsonSyntaxError(text);
    const position = /at position (\d+)/.exec(reason)?.[1];
    const where =
      found ?? (position === undefined ? undefined : lineAndColumn(text, Number(position)));
    const at = where ? ` at line ${where.line}, column ${where.column}` : "";
    throw new SpillwayError(
      options.code,
      `Invalid ${options.subject} ${options.file}: malformed JSON${at}: ${found?.reason ?? reason}.`,
      { file: options.file, ...(where ? { line: where.line, column: where.column } : {}) },
      { cause },
    );
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  const locate = doc.errors.length === 0 ? yamlLocator(doc, lines) : () => undefined;
  return { data, locate };
}
