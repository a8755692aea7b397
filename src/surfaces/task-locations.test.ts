/**
 * The task search leaves out the words that name the file the call read (SW-27): they say where
 * to look, not what to find, so the output's own words that share their parts must not lead.
 */
import { describe, expect, it } from "vitest";
import { origin, SCOPE, tempStore } from "../../test/helpers/temp-store.js";
import { defaultHandleMessage } from "./handle-message.js";
import { withoutLocations } from "./task-search.js";

describe("withoutLocations", () => {
  it("drops the path the call read from the task: as written, as its tail, as its last part", () => {
    const args = JSON.stringify({ path: "/srv/project/data/05-export.json", head: 10 });
    expect(withoutLocations("In data/05-export.json, which order was refunded?", args)).toBe(
      "In  which order was refunded?",
    );
    expect(withoutLocations("Which order in 05-export.json?", args)).toBe("Which order in ");
    expect(withoutLocations("Which order in 05-EXPORT.JSON was refunded?", args)).toBe(
      "Which order in  was refunded?",
    );
  });

  it("keeps words that are no location of the call, and any task when the arguments are not JSON", () => {
    const args = JSON.stringify({ query: "ord_123", url: "https://example.com/a/b" });
    expect(withoutLocations("Find ord_123 on /a/b", args)).toBe("Find ord_123 on ");
    expect(withoutLocations("Find ord_123 in a/b", "not json")).toBe("Find ord_123 in a/b");
    const read = JSON.stringify({ path: "/srv/data/app.log" });
    expect(withoutLocations("Which line of app.log names other.log?", read)).toBe(
      "Which line of  names other.log?",
    );
    // A word that is a file name only when the argument is not a path is not dropped.
    expect(withoutLocations("Find app.log", JSON.stringify({ name: "app.log" }))).toBe(
      "Find app.log",
    );
  });
});

describe("a task naming the file it asks about by its name alone", () => {
  it("finds the line holding the task's word, not the key that shares the file name's parts", async () => {
    const entries = Array.from({ length: 400 }, (_, i) => ({
      code: `AA-${String(i).padStart(3, "0")}`,
      name: `Place ${i}`,
      type: "Region",
    }));
    entries[287] = { code: "JP-47", name: "Okinawa", type: "Prefecture" };
    const text = JSON.stringify({ "3166-2": entries }, null, 2);
    const { store } = await tempStore();
    const args = JSON.stringify({ path: "/usr/share/iso-codes/json/iso_3166-2.json" });
    const record = await store.put(origin("fs__read_text_file", args), text);
    const message = await defaultHandleMessage(record, store, SCOPE, 5, {
      taskText: "What is the subdivision code of Okinawa in iso_3166-2.json?",
      taskRecord: true,
    });
    const found = message.split("\nRead it with:")[0]!.split("found these lines")[1] ?? "";
    expect(found).toContain('"name": "Okinawa"');
    expect(found).toContain('"code": "JP-47"');
    expect(found).not.toContain('"3166-2": [');
  });
});
