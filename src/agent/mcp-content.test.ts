import { describe, expect, it } from "vitest";
import type { TextStream } from "../core/text-stream.js";
import { mcpContent } from "./session-tools.js";

function fakeStream(text: string): TextStream & { released: boolean } {
  return {
    byteLength: Buffer.byteLength(text),
    released: false,
    async *chunks() {
      yield text.slice(0, 3);
      yield text.slice(3);
    },
    async release() {
      this.released = true;
    },
  };
}

async function collect(text: unknown): Promise<string> {
  if (typeof text === "string") return text;
  let out = "";
  for await (const piece of (text as TextStream).chunks()) out += piece;
  return out;
}

describe("mcpContent with streamed texts", () => {
  it("joins text streams with strings, and frees a duplicate in structuredContent", async () => {
    const body = fakeStream("a very long body");
    const duplicate = fakeStream("a very long body");
    const outcome = mcpContent({
      isError: false,
      content: [
        { type: "text", text: "head" },
        { type: "text-stream", text: body },
      ],
      structured: { content: duplicate },
      raw: {},
    });
    if (outcome.type !== "content") throw new Error("content expected");
    expect(await collect(outcome.text)).toBe("head\na very long body");
    expect(duplicate.released).toBe(true);
    expect(body.released).toBe(false);
    await (outcome.text as TextStream).release();
    expect(body.released).toBe(true);
  });

  it("streams structured-only results as the JSON text they would have been", async () => {
    const big = fakeStream('line "1"\nline 2');
    const outcome = mcpContent({
      isError: false,
      content: [],
      structured: { content: big, n: 2 },
      raw: {},
    });
    if (outcome.type !== "content") throw new Error("content expected");
    expect(await collect(outcome.text)).toBe(
      JSON.stringify({ content: 'line "1"\nline 2', n: 2 }, null, 2),
    );
  });
});
