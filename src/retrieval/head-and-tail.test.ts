import { describe, expect, it } from "vitest";
import { origin, SCOPE, tempStore } from "../../test/helpers/temp-store.js";
import { headAndTail } from "./head-and-tail.js";

async function opened(text: string) {
  const { store } = await tempStore();
  const record = await store.put(origin(), text);
  return store.open(record.id, SCOPE);
}

describe("headAndTail", () => {
  it("returns an output that fits whole, with no marker", async () => {
    const output = await opened("short output\n");
    expect(await headAndTail(output, 100)).toBe("short output\n");
    await output.close();
  });

  it("keeps the top and bottom and names exactly what was omitted, and the handle", async () => {
    const text = Array.from({ length: 1000 }, (_, i) => `line ${i}`).join("\n");
    const output = await opened(text);
    const shown = await headAndTail(output, 200);
    const [head, marker, tail] = shown
      .split("\n[…")
      .flatMap((part, i) => (i === 0 ? [part] : part.split("…]\n")));
    expect(text.startsWith(head!)).toBe(true);
    expect(text.endsWith(tail!)).toBe(true);
    expect(head!.length + tail!.length).toBe(200);
    const omitted = text.length - 200;
    expect(marker).toBe(
      ` truncated: ${omitted.toLocaleString("en-US")} of ${text.length.toLocaleString("en-US")} characters omitted here (chars 100-${text.length - 100}); the whole output is stored as ${output.record.id} `,
    );
    await output.close();
  });

  it("never splits an emoji: the boundaries widen and the marker counts from where they fell", async () => {
    const text = "😀".repeat(500);
    const output = await opened(text);
    const shown = await headAndTail(output, 101);
    expect(shown).not.toMatch(/\uFFFD/);
    expect(shown.isWellFormed()).toBe(true);
    const match = /chars (\d+)-(\d+)\)/.exec(shown)!;
    expect(Number(match[1]) % 2).toBe(0);
    expect(Number(match[2]) % 2).toBe(0);
    await output.close();
  });
});
