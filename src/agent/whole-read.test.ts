/**
 * A part asked for never hides the rest (SW-30): a read-only tool's call that sets optional
 * numeric arguments is run whole when the whole holds the part; otherwise the part is returned.
 */
import { describe, expect, it } from "vitest";
import type { TextStream } from "../core/text-stream.js";
import type { ToolOutcome } from "./tool-types.js";
import { declaredReadOnly, limitingArguments, readWhole } from "./whole-read.js";

const FILE_SCHEMA = {
  type: "object",
  properties: {
    path: { type: "string" },
    head: { type: "number" },
    tail: { type: ["integer", "null"] },
    encoding: { type: "string" },
  },
  required: ["path"],
};

const LINES = Array.from({ length: 500 }, (_, i) => `line ${i + 1}`);

/** A file tool: `head`/`tail` keep the first or last lines. */
function fileTool(calls: unknown[]) {
  return async (args: unknown): Promise<ToolOutcome> => {
    calls.push(args);
    const { head, tail } = args as { head?: number; tail?: number };
    const lines = head ? LINES.slice(0, head) : tail ? LINES.slice(-tail) : LINES;
    return { type: "content", text: lines.join("\n"), isError: false };
  };
}

describe("limitingArguments", () => {
  it("names the optional numeric arguments a call sets, never a required or a text one", () => {
    expect(limitingArguments(FILE_SCHEMA, { path: "a", tail: 10, encoding: "utf8" })).toEqual([
      "tail",
    ]);
    expect(limitingArguments(FILE_SCHEMA, { path: "a", head: 5, tail: null })).toEqual(["head"]);
    const required = { ...FILE_SCHEMA, required: ["path", "head"] };
    expect(limitingArguments(required, { path: "a", head: 5 })).toEqual([]);
    expect(limitingArguments(FILE_SCHEMA, "not an object")).toEqual([]);
  });

  it("reads the server's read-only declaration", () => {
    expect(declaredReadOnly({ annotations: { readOnlyHint: true } })).toBe(true);
    expect(declaredReadOnly({ annotations: { readOnlyHint: false } })).toBe(false);
    expect(declaredReadOnly({})).toBe(false);
  });
});

describe("readWhole", () => {
  it("returns the whole result when the call asked for its last lines, with what it lifted", async () => {
    const calls: unknown[] = [];
    const outcome = await readWhole(FILE_SCHEMA, { path: "a.log", tail: 10 }, fileTool(calls));
    expect(calls).toEqual([{ path: "a.log", tail: 10 }, { path: "a.log" }]);
    expect(outcome).toEqual({
      type: "content",
      text: LINES.join("\n"),
      isError: false,
      lifted: { arguments: ["tail"], argsText: '{"path":"a.log"}' },
    });
  });

  it("returns the part, as asked, when the wider call does not hold it (a page, an index)", async () => {
    const pages = async (args: unknown): Promise<ToolOutcome> => {
      const page = (args as { page?: number }).page ?? 1;
      return { type: "content", text: `results of page ${page}\n`.repeat(20), isError: false };
    };
    const schema = { properties: { q: { type: "string" }, page: { type: "integer" } } };
    const outcome = await readWhole(schema, { q: "x", page: 3 }, pages);
    expect(outcome).toEqual({
      type: "content",
      text: "results of page 3\n".repeat(20),
      isError: false,
    });
  });

  it("returns the part when the call sets no limit, fails, or the wider call fails", async () => {
    const calls: unknown[] = [];
    await readWhole(FILE_SCHEMA, { path: "a.log" }, fileTool(calls));
    expect(calls).toHaveLength(1);
    const failing = async (): Promise<ToolOutcome> => ({
      type: "content",
      text: "ENOENT",
      isError: true,
    });
    expect(await readWhole(FILE_SCHEMA, { path: "b", tail: 3 }, failing)).toMatchObject({
      isError: true,
      text: "ENOENT",
    });
    let n = 0;
    const secondThrows = async (args: unknown): Promise<ToolOutcome> => {
      if (n++ > 0) throw new Error("server gone");
      return fileTool([])(args);
    };
    expect(await readWhole(FILE_SCHEMA, { path: "a", head: 2 }, secondThrows)).toEqual({
      type: "content",
      text: "line 1\nline 2",
      isError: false,
    });
  });

  it("finds the part in a whole that arrives as a stream, across its pieces", async () => {
    let released = 0;
    const streamOf = (text: string, piece: number): TextStream => ({
      byteLength: Buffer.byteLength(text),
      async *chunks() {
        for (let i = 0; i < text.length; i += piece) yield text.slice(i, i + piece);
      },
      release: async () => {
        released++;
      },
    });
    const whole = LINES.join("\n");
    const run = async (args: unknown): Promise<ToolOutcome> => {
      const { tail } = args as { tail?: number };
      return {
        type: "content",
        text: tail ? LINES.slice(-tail).join("\n") : streamOf(whole, 7),
        isError: false,
      };
    };
    const outcome = await readWhole(FILE_SCHEMA, { path: "a", tail: 4 }, run);
    expect(outcome.type === "content" && outcome.lifted?.arguments).toEqual(["tail"]);
    const other = async (args: unknown): Promise<ToolOutcome> => {
      const { tail } = args as { tail?: number };
      return {
        type: "content",
        text: tail ? "not in the whole" : streamOf(whole, 7),
        isError: false,
      };
    };
    const part = await readWhole(FILE_SCHEMA, { path: "a", tail: 4 }, other);
    expect(part).toMatchObject({ text: "not in the whole" });
    expect(released).toBe(1);
  });

  it("recognizes a part whose line breaks the server normalized (a CRLF file's last lines)", async () => {
    const crlf = `${LINES.join("\r\n")}\r\n`;
    // As the MCP filesystem server's `tail` does: breaks normalized to \n, the whole read as is.
    const run = async (args: unknown): Promise<ToolOutcome> => {
      const { tail } = args as { tail?: number };
      const text = tail ? LINES.slice(-tail).join("\n") : crlf;
      return { type: "content", text, isError: false };
    };
    const outcome = await readWhole(FILE_SCHEMA, { path: "a", tail: 10 }, run);
    expect(outcome).toMatchObject({ text: crlf, lifted: { arguments: ["tail"] } });
  });

  it("recognizes it in a CRLF stream whose pieces split a \\r\\n, and not a part it lacks", async () => {
    const crlf = LINES.join("\r\n");
    const streamOf = (text: string, piece: number): TextStream => ({
      byteLength: Buffer.byteLength(text),
      async *chunks() {
        for (let i = 0; i < text.length; i += piece) yield text.slice(i, i + piece);
      },
      release: async () => {},
    });
    // Every piece boundary falls somewhere else in "line N\r\n" for one of these sizes.
    for (const piece of [5, 6, 7, 8, 9]) {
      const run =
        (part: string) =>
        async (args: unknown): Promise<ToolOutcome> => ({
          type: "content",
          text: (args as { tail?: number }).tail ? part : streamOf(crlf, piece),
          isError: false,
        });
      const tail = LINES.slice(-3).join("\n");
      const found = await readWhole(FILE_SCHEMA, { path: "a", tail: 3 }, run(tail));
      expect(found.type === "content" && found.lifted?.arguments, `pieces of ${piece}`).toEqual([
        "tail",
      ]);
      const middle = "line 250\nline 251\nline 252";
      const inside = await readWhole(FILE_SCHEMA, { path: "a", tail: 3 }, run(middle));
      expect(inside.type === "content" && inside.lifted?.arguments).toEqual(["tail"]);
      const joined = "line 250line 251";
      const absent = await readWhole(FILE_SCHEMA, { path: "a", tail: 3 }, run(joined));
      expect(absent).toMatchObject({ text: joined });
    }
  });
});
