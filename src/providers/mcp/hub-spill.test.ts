import { createHash } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isTextStream, type TextStream } from "../../core/text-stream.js";
import { fixtureServer } from "./fixtures/server-specs.js";
import { bigText } from "./fixtures/test-tools.js";
import { connectMcpServers, type McpHub } from "./index.js";

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

async function read(stream: TextStream): Promise<string> {
  let text = "";
  for await (const piece of stream.chunks()) text += piece;
  return text;
}

/** 12 M characters of 1- to 4-byte UTF-8: about 20 MB, over the 8 MiB streaming line. */
const LENGTH = 12_000_000;

describe("large stdio results stream into files (spillTextOverBytes)", () => {
  let spilling: McpHub;
  let plain: McpHub;
  let spillDir: string;

  beforeAll(async () => {
    spillDir = await mkdtemp(join(tmpdir(), "spillway-spill-"));
    spilling = await connectMcpServers(
      { t: fixtureServer() },
      { spillTextOverBytes: 1024 * 1024, spillDir, closeGraceMs: 300 },
    );
    plain = await connectMcpServers({ t: fixtureServer() }, { closeGraceMs: 300 });
  });

  afterAll(async () => {
    await spilling?.close();
    await plain?.close();
    await rm(spillDir, { recursive: true, force: true });
  });

  it("a 20 MB text arrives as a stream with exactly the text the server sent", async () => {
    const result = await spilling.callTool("t__big_text", { length: LENGTH });
    const [part] = result.content;
    if (part?.type !== "text-stream") throw new Error(`a text stream expected, got ${part?.type}`);
    expect((await readdir(spillDir)).length).toBe(1);
    expect(sha(await read(part.text))).toBe(sha(bigText(LENGTH)));
    await part.text.release();
    expect(await readdir(spillDir)).toEqual([]);
  });

  it("without the option (and for small messages) texts stay strings", async () => {
    const big = await plain.callTool("t__big_text", { length: 3_000_000 });
    expect(big.content[0]).toMatchObject({ type: "text" });
    const small = await spilling.callTool("t__echo", { text: "small" });
    expect(small.content).toEqual([{ type: "text", text: "small" }]);
  });

  it("long strings in structuredContent are streams too, escapes kept as JSON.parse keeps them", async () => {
    const expected = `${bigText(LENGTH)}\ud800|\ud83d\ude00`;
    const result = await spilling.callTool("t__big_structured", {
      length: LENGTH,
      duplicate: false,
    });
    const structured = result.structured as { content: unknown; lines: number; nested: unknown };
    expect(structured.lines).toBe(3);
    expect(structured.nested).toEqual({ again: expected.slice(0, 5) });
    if (!isTextStream(structured.content)) throw new Error("a stream expected");
    const text = await read(structured.content);
    expect(text === expected).toBe(true);
    await structured.content.release();
    expect(await readdir(spillDir)).toEqual([]);
  });

  it("closing the hub leaves no spill files behind", async () => {
    const before = await readdir(spillDir);
    await spilling.close();
    expect(await readdir(spillDir)).toEqual(before);
  });
});
