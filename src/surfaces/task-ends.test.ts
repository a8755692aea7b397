/**
 * The handle message names the first and the last of the lines holding the task words its best
 * line holds (SW-44): lines alike to the search differ only in their place, and a question about
 * place is answered by the output's order, not by the best-scored few.
 */
import { describe, expect, it } from "vitest";
import { origin, SCOPE, tempStore } from "../../test/helpers/temp-store.js";
import { defaultHandleMessage } from "./handle-message.js";

/** A shipments table: `lost` rows at the given row numbers among many delivered ones. */
function shipments(rows: number, lostAt: readonly number[]): string {
  const lines = ["shipment_id,carrier,warehouse,status,notes"];
  for (let i = 1; i <= rows; i++) {
    const status = lostAt.includes(i) ? "lost" : "delivered";
    // Notes of varied length, so the search's scores differ among the lost rows.
    const notes = lostAt.includes(i) ? "x".repeat(((i * 7) % 5) * 9) : "";
    lines.push(`SHP-${100_000 + i},DHL,WH-${i % 9},${status},${notes}`);
  }
  return `${lines.join("\n")}\n`;
}

/** A runbook: sections, a term mentioned in the given ones, filler elsewhere. */
function runbook(sections: number, mentionIn: readonly number[]): string {
  const parts = ["# Platform runbook", ""];
  for (let s = 1; s <= sections; s++) {
    parts.push(`## ${s}. Procedure number ${s}`, "");
    const body = Array.from({ length: 8 }, (_, i) => `Step ${i + 1} of procedure ${s}: check it.`);
    // The first mention is the longest, so the search scores a later one best.
    if (mentionIn.includes(s))
      body.splice(
        3,
        0,
        s === mentionIn[0]
          ? "Turn on the maintenance banner first, and keep it on until every worker reports healthy again."
          : "Turn on the maintenance banner first.",
      );
    parts.push(...body, "");
  }
  return parts.join("\n");
}

const endsSection = (message: string) =>
  message
    .split("\nRead it with:")[0]!
    .split(/\n(?=(?:At least )?[\d,]+ lines hold the words)/)[1] ?? "";

async function messageFor(text: string, taskText: string, alikeEnds = true) {
  const { store } = await tempStore();
  const record = await store.put(origin("fs__read_text_file", "{}"), text);
  return defaultHandleMessage(record, store, SCOPE, 5, { taskText, taskRecord: true, alikeEnds });
}

describe("the ends of the lines alike to the task search's best", () => {
  it("shows the first and the last lost row, each with its column names, and how many there are", async () => {
    const lost = [40, 95, 130, 222, 310, 480];
    const message = await messageFor(
      shipments(600, lost),
      "Which was the last shipment marked lost?",
    );
    const ends = endsSection(message);
    expect(ends).toMatch(
      /^6 lines hold the words of your task that line \d+ holds; in the output's order the first of them is line 41, the last line 481:/,
    );
    expect(ends).toContain("shipment_id=SHP-100480");
    expect(ends).toContain("status=lost");
    // Each end is shown once: not also among the search's other lines.
    expect(message.split("481| ").length).toBe(2);
  });

  it("names the section of an end in a document", async () => {
    const message = await messageFor(
      runbook(30, [7, 12, 19, 26]),
      "Which section first mentions the maintenance banner?",
    );
    const ends = endsSection(message);
    expect(ends).toMatch(
      /^4 lines hold the words of your task that line \d+ holds; in the output's order the first of them is line 74, the last line 286:/,
    );
    expect(ends).toContain("in the section under line 69: ## 7. Procedure number 7");
    expect(ends).toContain("in the section under line 281: ## 26. Procedure number 26");
  });

  it("counts at most a hundred alike lines, and still shows the output's last", async () => {
    // Lost rows are few enough (under a tenth) for the search to show them.
    const lost = Array.from({ length: 120 }, (_, i) => 3 + i * 13);
    const message = await messageFor(shipments(1_600, lost), "Which shipment was lost last?");
    const ends = endsSection(message);
    expect(ends).toMatch(/^At least 100 lines hold the words of your task/);
    expect(ends).toContain(`the last line ${lost.at(-1)! + 1}:`);
    expect(ends).toContain(`shipment_id=SHP-${100_000 + lost.at(-1)!}`);
  });

  it("says nothing when one line holds the words, or when the switch is off", async () => {
    const one = await messageFor(shipments(300, [150]), "Which shipment was lost?");
    expect(one).toContain("status=lost");
    expect(one).not.toContain("lines hold the words of your task");
    const off = await messageFor(shipments(600, [40, 95, 480]), "Last shipment lost?", false);
    expect(off).toContain("A search of it for the words of your task");
    expect(off).not.toContain("lines hold the words of your task");
  });
});
