import { describe, expect, it } from "vitest";
import { MAX_EVIDENCE_CHARS, readEvidence } from "./read-evidence.js";

const task = "What is the refund reference recorded for event evt_ntngab003?";

describe("readEvidence", () => {
  it("keeps the numbered lines naming a task term, with their numbered neighbours, headers left out", () => {
    const grep = [
      '[out_1 grep "evt_ntngab003": 1 matching line; showing 1 · LINE:COL: text, context LINE- text]',
      "156- a",
      "157- b",
      "158:40: WARN event=evt_ntngab003 refund_ref=ANS-R8P71E",
      "159- c",
      "160- d",
      "161- e",
    ].join("\n");
    expect(readEvidence(task, [grep])).toEqual({
      terms: ["refund", "event", "evt", "003", "ntngab003"],
      lines: [
        "156- a",
        "157- b",
        "158:40: WARN event=evt_ntngab003 refund_ref=ANS-R8P71E",
        "159- c",
        "160- d",
      ],
    });
  });

  it("puts the latest read first and keeps a line read twice once", () => {
    const first = "158:40: event=evt_ntngab003 refund_ref=ANS-R8P71E";
    const slice =
      "[out_1 lines 150-160]\n158: event=evt_ntngab003 refund_ref=ANS-R8P71E\n159: next";
    expect(readEvidence(task, [first, slice]).lines).toEqual([
      "158: event=evt_ntngab003 refund_ref=ANS-R8P71E",
      "159: next",
    ]);
  });

  it("quotes a handle message's line alone: the lines around it there are other places", () => {
    const handle = [
      "[spillway] The output of fs__read_text_file is stored whole as out_1 (…).",
      "A search of it for the words of your task found these lines (best first). …",
      "  146| level=error svc=catalog trace=9ed2 event=evt_ntngab003 refund_ref=ANS-R8P71E",
      "  179| level=error svc=catalog trace=854f",
      "  180| level=error svc=catalog trace=f3a4",
    ].join("\n");
    expect(readEvidence(task, [], [handle]).lines).toEqual([
      "146| level=error svc=catalog trace=9ed2 event=evt_ntngab003 refund_ref=ANS-R8P71E",
    ]);
    // A read of the same line comes first, with its neighbours.
    const grep = "157- before\n158:5: event=evt_ntngab003 refund_ref=ANS-R8P71E\n159- after";
    expect(readEvidence(task, [grep], [handle]).lines.slice(0, 3)).toEqual([
      "157- before",
      "158:5: event=evt_ntngab003 refund_ref=ANS-R8P71E",
      "159- after",
    ]);
  });

  it("gives nothing for reads that never hold the task's words, or a task of common words only", () => {
    expect(readEvidence(task, ["12:1: ERROR other"])).toEqual({ terms: [], lines: [] });
    expect(readEvidence("What is it?", ["12:1: what is it"])).toEqual({ terms: [], lines: [] });
  });

  it("puts the line with the task's rare word before the many with a common one, in any script", () => {
    const grep = [
      ...Array.from({ length: 8 }, (_, i) => `${10 + i * 10}:1: status ok request ${i}`),
      "95:1: status failed request 99 起動マーカー=ALPHA-7",
    ].join("\n");
    const { lines } = readEvidence("起動マーカーの status は何ですか", [grep]);
    // The best line's block (its neighbours before it) comes first.
    expect(lines.slice(0, 3)).toEqual([
      "70:1: status ok request 6",
      "80:1: status ok request 7",
      "95:1: status failed request 99 起動マーカー=ALPHA-7",
    ]);
    expect(
      readEvidence("What does the boot marker say?", ["7: BOOT-MARKER-ALPHA set"]).lines,
    ).toEqual(["7: BOOT-MARKER-ALPHA set"]);
  });

  it("stops at MAX_EVIDENCE_CHARS and cuts a long line", () => {
    const reads = Array.from(
      { length: 40 },
      (_, i) => `${i + 1}:1: evt_ntngab003 ${"x".repeat(400)}`,
    );
    const { lines } = readEvidence(task, [reads.join("\n")]);
    expect(lines.join("\n").length).toBeLessThanOrEqual(MAX_EVIDENCE_CHARS);
    expect(lines[0]).toMatch(/^1:1: evt_ntngab003 x+…$/);
    expect(lines[0]!.length).toBe(301);
  });

  it("brings the whole record a grep showed around a line naming the term", () => {
    const grep = [
      '[out_1 grep "ord_89309srrp": 1 matching line; showing 1 inside their records · LINE:COL: text on a matching line, LINE- text on the record\'s other lines]',
      "[record: JSON object, lines 980-990]",
      "980-     {",
      '981:14:       "id": "ord_89309srrp",',
      ...Array.from({ length: 7 }, (_, i) => `${982 + i}-       "k${i}": ${i},`),
      '989-       "code": "ANS-FNNVCW"',
      "990-     },",
      "[other text]",
      "991- after",
    ].join("\n");
    const { lines } = readEvidence("What is the code of order ord_89309srrp?", [grep]);
    expect(lines[0]).toBe("980-     {");
    expect(lines).toContain('981:14:       "id": "ord_89309srrp",');
    expect(lines).toContain('989-       "code": "ANS-FNNVCW"');
    expect(lines.at(-1)).toBe("990-     },");
    // The id line is kept once.
    expect(lines.filter((l) => l.includes("ord_89309srrp"))).toHaveLength(1);
  });
});
