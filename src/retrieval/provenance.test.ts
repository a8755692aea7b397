import { describe, expect, it } from "vitest";
import { origin, SCOPE, tempStore } from "../../test/helpers/temp-store.js";
import { readOutput } from "./read-output.js";

describe("provenance at the edges of an output", () => {
  it("an empty range at the end of 1000 lines names no line past the last", async () => {
    const { store } = await tempStore();
    const text = Array.from({ length: 1000 }, (_, i) => `line ${i + 1}\n`).join("");
    const record = await store.put(origin(), text);
    const page = await readOutput(store, record.id, SCOPE, { mode: "page", cursor: text.length });
    if (page.encoding !== "utf-8") throw new Error("text expected");
    expect(page.text).toBe("");
    expect(page.provenance).toMatchObject({ lineStart: 1000, lineEnd: 1000, totalLines: 1000 });
    const slice = await readOutput(store, record.id, SCOPE, { mode: "slice", start: text.length });
    if (!slice.found || slice.encoding !== "utf-8") throw new Error("text expected");
    expect(slice.provenance.lineStart).toBeLessThanOrEqual(slice.provenance.totalLines);
  });

  it("an empty output has no lines at all", async () => {
    const { store } = await tempStore();
    const record = await store.put(origin(), "");
    const raw = await readOutput(store, record.id, SCOPE, { mode: "raw" });
    if (raw.encoding !== "utf-8") throw new Error("text expected");
    expect(raw.provenance).toMatchObject({ lineStart: 0, lineEnd: 0, totalLines: 0 });
  });

  it("a non-empty range still names its lines exactly", async () => {
    const { store } = await tempStore();
    const record = await store.put(origin(), "a\nb\nc");
    const slice = await readOutput(store, record.id, SCOPE, { mode: "slice", start: 2, length: 3 });
    if (!slice.found || slice.encoding !== "utf-8") throw new Error("text expected");
    expect(slice.text).toBe("b\nc");
    expect(slice.provenance).toMatchObject({ lineStart: 2, lineEnd: 3, totalLines: 3 });
  });
});
