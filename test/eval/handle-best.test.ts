/** The task search's best result in a handle message (eval/handle-best.ts), as eval:handles counts it. */
import { describe, expect, it } from "vitest";
import { bestResult, lookAlikes } from "../../eval/handle-best.js";
import { exampleQuery } from "../../eval/handle-search.js";
import { defaultHandleMessage } from "../../src/surfaces/handle-message.js";
import { origin, SCOPE, tempStore } from "../helpers/temp-store.js";

const HEADER =
  "A search of it for the words of your task found these lines (best first). One of them may answer your task: check it against what your task asks, and read more when none does.";

describe("bestResult", () => {
  it("is the record the best line was found in, not the lines after it", () => {
    const message = [
      "[spillway] The output of fs__read_text_file is stored whole as out_x (…).",
      "",
      HEADER,
      "  [record: log entry, lines 1,482-1,484; the search found lines 1,482, 1,484]",
      "  1482| ERROR payment failed order=ord_7",
      "  1483| java.net.SocketTimeoutException: Read timed out",
      "  1484| 	at Client.authorize(Client.java:212)",
      "  90| INFO order=ord_7 placed",
      "",
      "Read it with:",
      '  get_tool_output(id="out_x", mode="page", cursor=0)',
    ].join("\n");
    expect(bestResult(message)).toEqual([
      "  1482| ERROR payment failed order=ord_7",
      "  1483| java.net.SocketTimeoutException: Read timed out",
      "  1484| 	at Client.authorize(Client.java:212)",
    ]);
  });

  it("is the first line shown when the best line has no record, and nothing without a search", () => {
    const lines = `${HEADER}\n  12| status=lost id=SHP-1\n  40| status=lost id=SHP-2\n\nRead it with:`;
    expect(bestResult(lines)).toEqual(["  12| status=lost id=SHP-1"]);
    const oneLine = `${HEADER}\n  [record: JSON object, line 1, chars 7,173-7,776; the search found line 1]\n  1| {"id":7}\n  9| other\n`;
    expect(bestResult(oneLine)).toEqual(['  1| {"id":7}']);
    expect(bestResult("[spillway] stored whole.\n\nFirst lines:\n  1| a")).toEqual([]);
  });
});

describe("lookAlikes", () => {
  it("counts the other values of the answer's form, not its line numbers or itself", () => {
    const best = [
      "  1064|     Expected: 6869",
      "  1065|     Received: 8022",
      "  1066|   at run (x.ts:47)",
    ];
    expect(lookAlikes(best, ["8022"])).toBe(1);
    // An accepted spelling of the answer is not a look-alike.
    expect(lookAlikes(best, ["8022", "6869"])).toBe(0);
    expect(lookAlikes(best, ["x.ts:47"])).toBe(0);
    expect(lookAlikes(["  3| ord-58213 ord-11111, ord-58213."], ["ord-58213"])).toBe(1);
  });
});

describe("exampleQuery", () => {
  it("is the query of a real handle message's example search, not text of the output's lines", async () => {
    const { store } = await tempStore();
    const lines = Array.from({ length: 3000 }, (_, i) =>
      i === 1700
        ? `WARN boot marker BOOT-MARKER-ALPHA reached mode="search", query="planted")`
        : `INFO tick ${i}`,
    );
    const record = await store.put(origin("fs__read_text_file", "{}"), lines.join("\n"));
    const message = await defaultHandleMessage(record, store, SCOPE, 5, {
      taskText: "When was the boot marker reached?",
      taskRecord: true,
    });
    expect(message).toContain('query="planted")');
    expect(exampleQuery(message)).toMatch(/boot|marker/);
    expect(exampleQuery(message)).not.toBe("planted");
  });

  it("is the query of the handle message's example search, unescaped, or nothing", () => {
    const line = (q: string) =>
      `  get_tool_output(id="out_x", mode="search", query=${JSON.stringify(q)})   the lines with these words`;
    expect(exampleQuery(line('the "boot" marker'))).toBe('the "boot" marker');
    expect(exampleQuery(line("品番 倉庫"))).toBe("品番 倉庫");
    expect(exampleQuery('  get_tool_output(id="out_x", mode="search", query)   the lines')).toBe(
      undefined,
    );
  });
});
