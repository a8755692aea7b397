/**
 * The handle message's task search shows a line holding the task's rarest word (SW-62): lines
 * holding two of the task's less rare words must not crowd out the one naming what it asks about.
 */
import { describe, expect, it } from "vitest";
import { taskSearchSection } from "../../test/helpers/handle-sections.js";
import { origin, SCOPE, tempStore } from "../../test/helpers/temp-store.js";
import type { MatchRecord } from "../retrieval/record-types.js";
import type { SearchMatch } from "../retrieval/search.js";
import { defaultHandleMessage } from "./handle-message.js";
import { withRarestShown } from "./task-rarest.js";

/** A registry of writing systems as JSON: a four-letter code, a name and a number each. */
function registry(count: number, named: number, name: string): string {
  const special = ["inherited", "undetermined", "uncoded", "unwritten"];
  const entries = Array.from({ length: count }, (_, i) => {
    const label =
      i === named
        ? `${name} (Old)`
        : i >= count - special.length
          ? `Code for ${special[count - 1 - i]} script`
          : `Writing ${i}`;
    return { alpha_4: `W${String(i).padStart(3, "0")}`, name: label, numeric: String(100 + i) };
  });
  return JSON.stringify({ systems: entries }, null, 2);
}

/** The lines the task search shows, after its heading. */
const searchLines = (message: string) => taskSearchSection(message).trim().split("\n");

describe("the task search shows the task's rarest word", () => {
  it("shows the line naming the thing asked about beside lines of two commoner task words", async () => {
    const { store } = await tempStore();
    const text = registry(180, 131, "Zarvanic");
    const record = await store.put(origin("fs__read_text_file", "{}"), text);
    const message = await defaultHandleMessage(record, store, SCOPE, 5, {
      taskText: "What is the four-letter code of the Zarvanic script?",
      taskRecord: true,
    });
    const shown = searchLines(message).join("\n");
    // Three lines hold both "code" and "script"; the one holding "Zarvanic" is still shown.
    expect(shown).toContain('"name": "Zarvanic (Old)"');
    expect(shown).toContain("Code for");
  });
});

const match = (line: number, terms: string[]): SearchMatch => ({
  outputId: "out_1",
  line,
  text: `line ${line}`,
  clipped: false,
  provenance: {
    lineStart: line,
    lineEnd: line,
    charStart: 0,
    charEnd: 1,
  } as SearchMatch["provenance"],
  score: 10 - line / 100,
  terms,
  focusChar: 0,
});

describe("withRarestShown", () => {
  const ranked = [
    match(10, ["code", "script"]),
    match(20, ["code", "script"]),
    match(30, ["code", "script"]),
    match(40, ["zarvanic"]),
    match(50, ["zarvanic"]),
  ];

  it("gives the last place to the best line holding a rarest term when no shown line does", () => {
    expect(withRarestShown(ranked, 3, ["zarvanic"]).map((m) => m.line)).toEqual([10, 20, 40]);
  });

  it("keeps the ranking when a shown line holds a rarest term", () => {
    const held = [ranked[0]!, match(20, ["zarvanic", "code"]), ...ranked.slice(2)];
    expect(withRarestShown(held, 3, ["zarvanic"]).map((m) => m.line)).toEqual([10, 20, 30]);
  });

  it("keeps the ranking when the best line's record holds that line", () => {
    const best = {
      provenance: { lineStart: 8, lineEnd: 42, charStart: 0, charEnd: 10_000 },
    } as MatchRecord;
    expect(withRarestShown(ranked, 3, ["zarvanic"], best).map((m) => m.line)).toEqual([10, 20, 30]);
  });

  it("keeps the ranking when no ranked line holds a rarest term, or none is given", () => {
    expect(withRarestShown(ranked, 3, ["absent"]).map((m) => m.line)).toEqual([10, 20, 30]);
    expect(withRarestShown(ranked, 3, []).map((m) => m.line)).toEqual([10, 20, 30]);
  });
});
