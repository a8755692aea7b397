import { isSpillwayError, SpillwayError } from "../core/errors.js";
import type { ToolDefinition } from "../core/tool-definition.js";
import { readOutput } from "../retrieval/read-output.js";
import type { ReadScope } from "../store/output-store.js";
import { renderError, renderGrep, renderSlice } from "./render.js";
import type { Surface, SurfaceContext } from "./surface.js";

/**
 * The read-grep extraction agent's only tools (D0-8): Read and Grep, confined
 * to ONE stored output whose handle is the file name. Both are served by the retrieval
 * engine, in the parent session's scope; their answers fit the budget and say how to go on.
 */

const READ_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["file_path"],
  properties: {
    file_path: {
      type: "string",
      description: "The file to read: the handle you were given (it is the file name).",
    },
    offset: { type: "integer", description: "First line to read, 1-based (default 1)." },
    limit: { type: "integer", description: "Number of lines to read (default 200)." },
    start_char: { type: "integer", description: "Instead of lines: first character (0-based)." },
    length: { type: "integer", description: "With start_char: number of characters." },
  },
};

const GREP_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["pattern"],
  properties: {
    pattern: {
      type: "string",
      description: "Text to search for (a JavaScript regular expression with regex=true).",
    },
    file_path: {
      type: "string",
      description: "The file to search: the handle you were given (default: it).",
    },
    regex: { type: "boolean" },
    ignore_case: { type: "boolean" },
    context: { type: "integer", description: "Lines of context around each match (0-20)." },
    max_matches: { type: "integer", description: "Matches to return (default 50)." },
    cursor: { type: "integer", description: "Continue after a previous result's cursor." },
  },
};

const DEFAULT_READ_LINES = 200;

function args(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

function int(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) ? value : undefined;
}

/** The Read/Grep surface over one output (`handle`), read in `scope`. */
export function createReadGrepSurface(handle: string, scope: ReadScope): Surface {
  const tools: ToolDefinition[] = [
    {
      name: "Read",
      description: `Read lines (or characters) of the file ${handle}.`,
      inputSchema: READ_SCHEMA,
    },
    {
      name: "Grep",
      description: `Search the file ${handle} line by line.`,
      inputSchema: GREP_SCHEMA,
    },
  ];
  const checkFile = (path: unknown) => {
    if (path !== undefined && path !== handle) {
      throw new SpillwayError(
        "OUTPUT_NOT_FOUND",
        `There is no file ${JSON.stringify(path)}. The only file is ${handle} (the handle is the file name).`,
        { file: path },
        { fault: "model" },
      );
    }
  };
  const run = async (toolName: string, raw: unknown, context: SurfaceContext): Promise<string> => {
    const input = args(raw);
    checkFile(input.file_path);
    if (toolName === "Grep") {
      if (typeof input.pattern !== "string" || input.pattern === "") {
        throw new SpillwayError(
          "INVALID_TOOL_ARGUMENTS",
          "Grep needs a non-empty `pattern`.",
          {},
          { fault: "model" },
        );
      }
      const result = await readOutput(context.outputs, handle, scope, {
        mode: "grep",
        pattern: input.pattern,
        ...(input.regex === true ? { regex: true } : {}),
        ...(input.ignore_case === true ? { ignoreCase: true } : {}),
        ...(int(input.context) !== undefined ? { context: int(input.context)! } : {}),
        ...(int(input.max_matches) !== undefined ? { maxMatches: int(input.max_matches)! } : {}),
        ...(int(input.cursor) !== undefined ? { cursor: int(input.cursor)! } : {}),
      });
      return renderGrep(
        result,
        context.maxChars,
        (cursor) => `Grep(pattern=${JSON.stringify(input.pattern)}, cursor=${cursor})`,
      );
    }
    if (int(input.start_char) !== undefined) {
      const start = int(input.start_char)!;
      const length = Math.min(int(input.length) ?? 4000, context.maxChars);
      return renderSlice(
        await readOutput(context.outputs, handle, scope, {
          mode: "slice",
          start,
          length,
          maxChars: context.maxChars,
        }),
      );
    }
    const offset = Math.max(1, int(input.offset) ?? 1);
    const limit = Math.max(1, int(input.limit) ?? DEFAULT_READ_LINES);
    try {
      return renderSlice(
        await readOutput(context.outputs, handle, scope, {
          mode: "slice",
          lineStart: offset,
          lineEnd: offset + limit - 1,
          maxChars: context.maxChars,
        }),
      );
    } catch (error) {
      if (!isSpillwayError(error, "RANGE_TOO_LARGE") || typeof error.details.cursor !== "number")
        throw error;
      const start = error.details.cursor;
      const slice = await readOutput(context.outputs, handle, scope, {
        mode: "slice",
        start,
        length: context.maxChars,
        maxChars: context.maxChars,
      });
      return `[lines ${offset}-${offset + limit - 1} hold more than fits; showing characters from line ${offset}; continue with Read(file_path="${handle}", start_char=N)]\n${renderSlice(slice)}`;
    }
  };
  return {
    name: "read-grep",
    shownAs: "handle",
    alwaysListed: true,
    uncountedTools: new Set(),
    tools: () => tools,
    owns: (toolName) => toolName === "Read" || toolName === "Grep",
    placeholder: async (record) => ({
      text: `[output ${record.id} of ${record.toolName} is stored; read it with Read or Grep]`,
    }),
    execute: async (toolName, raw, context) => {
      try {
        return { text: await run(toolName, raw, context), isError: false, outputId: handle };
      } catch (error) {
        if (isSpillwayError(error)) return { text: renderError(error), isError: true };
        throw error;
      }
    },
  };
}
