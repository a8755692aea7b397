/**
 * A search of a line too long to show whole (SW-49): after its best passage, its next best
 * passages are matches of their own, each centred on another place the query's words meet.
 */
import { describe, expect, it } from "vitest";
import { openText } from "../../test/helpers/temp-store.js";
import { searchOutput } from "./search.js";
import { passageFoci, passageFocus } from "./search-focus.js";

const orders = Array.from({ length: 60 }, (_, i) => ({
  id: 1000 + i,
  status: ["paid", "refunded", "shipped"][i % 3],
  customer: { name: `Name ${i}`, email: `n${i}@example.com` },
}));
const minified = `${JSON.stringify({ orders })}\n`;

const opened = async (text: string) => (await openText(text)).opened;

describe("passageFoci", () => {
  it("starts with passageFocus's anchor, then each other passage holding the rarest word", () => {
    // "blue" is the rarer word: the passages are those holding it, the fullest first.
    const text = `${"x ".repeat(30)}blue ${"x ".repeat(30)}red red ${"x ".repeat(30)}red blue`;
    const words = ["red", "blue"];
    const foci = passageFoci(text, words, 10, [], 5);
    expect(foci[0]).toBe(passageFocus(text, words, 10));
    expect(foci.map((at) => text.slice(at, at + 4))).toEqual(["blue", "blue"]);
    expect(foci[0]).toBe(text.lastIndexOf("blue"));
    expect(passageFoci(text, ["green"], 10, [], 5)).toEqual([]);
  });
});

describe("search of a line too long to show whole", () => {
  it("shows its next best passages as matches of their own, each in another record", async () => {
    const output = await opened(minified);
    const found = await searchOutput(output, { query: "status refunded", maxResults: 8 });
    expect(found.matchingLines).toBe(1);
    expect(found.matches).toHaveLength(8);
    expect(new Set(found.matches.map((m) => m.line))).toEqual(new Set([1]));
    expect(new Set(found.matches.map((m) => m.score)).size).toBe(1);
    // Each centred on a "refunded", a different one each time.
    const foci = found.matches.map((m) => m.focusChar);
    expect(new Set(foci).size).toBe(8);
    for (const at of foci) expect(minified.slice(at, at + 8)).toBe("refunded");
  });

  it("keeps a line once with onePerLine, as the handle message's search does", async () => {
    const output = await opened(minified);
    const found = await searchOutput(output, {
      query: "status refunded",
      maxResults: 8,
      onePerLine: true,
    });
    expect(found.matches).toHaveLength(1);
  });

  it("adds nothing where the lines alone fill the results, or fit whole", async () => {
    const lines = orders.map((o) => JSON.stringify(o)).join("\n");
    const output = await opened(`${lines}\n`);
    const found = await searchOutput(output, { query: "status refunded", maxResults: 8 });
    expect(found.matches).toHaveLength(8);
    expect(new Set(found.matches.map((m) => m.line)).size).toBe(8);
    const one = await opened(`${minified}${lines}\n`);
    const both = await searchOutput(one, { query: "refunded", maxResults: 10 });
    // 21 lines hold the word: the results are lines, no passage of line 1 is added.
    expect(new Set(both.matches.map((m) => m.line)).size).toBe(both.matches.length);
  });
});
