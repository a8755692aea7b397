/**
 * A dump of records opens with its first record: when few of its unindented lines start alike
 * (the entries' own sections start at column 0 too), the first line's shape, where it recurs,
 * starts each record.
 */
import { describe, expect, it } from "vitest";
import { checkedRecord } from "./fixtures/record-harness.js";
import { recordStartShape } from "./record-blocks.js";

/** An audit dump: a numbered header, indented fields, then sections at column 0. */
function entry(n: number, user: string): string {
  return [
    `Entry[${n}]:`,
    `  Recorded: 2026-10-06T07:${String(n % 60).padStart(2, "0")}:19`,
    "  Channel: Audit",
    "  Summary: ",
    n === 23 ? "A key was revoked." : "A key was rotated.",
    "",
    "Requested by:",
    "\tService:\t\tvault",
    "",
    "Key owner:",
    `\tName:\t\t${user}`,
    "",
  ].join("\n");
}

const DUMP = `${Array.from({ length: 40 }, (_, i) => entry(i, `user${i}`)).join("\n")}\n`;

describe("records of a dump that opens with its first record", () => {
  it("takes the first line's recurring shape as the record start", () => {
    expect(recordStartShape(DUMP.split("\n"))).toBe("a[");
    // A shape of words alone starts nothing, and one line of a shape is no pattern.
    expect(recordStartShape(["Summary", "text", "Summary", "more", "Summary"])).toBeNull();
    expect(recordStartShape(["Entry[1]:", "a", "b", "c"])).toBeNull();
  });

  it("brings the whole entry around a line of one of its sections", async () => {
    const { record } = await checkedRecord(DUMP, "A key was revoked.");
    expect(record.kind).toBe("log-entry");
    expect(record.text.startsWith("Entry[23]:\n")).toBe(true);
    expect(record.text).toContain("\tName:\t\tuser23");
    expect(record.text).not.toContain("Entry[24]");
  });
});
