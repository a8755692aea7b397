/**
 * The task search leaves out the words that name the file the call read (SW-27): they say where
 * to look, not what to find, so the output's own words that share their parts must not lead.
 */
import { describe, expect, it } from "vitest";
import { taskSearchSection } from "../../test/helpers/handle-sections.js";
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
  });

  it("drops a file's name alone when the call read it so, and keeps values of other shapes", () => {
    const read = JSON.stringify({ path: "multirust-channel-manifest.toml", tail: 0 });
    expect(
      withoutLocations(
        "Which version of rustfmt-preview does multirust-channel-manifest.toml list?",
        read,
      ),
    ).toBe("Which version of rustfmt-preview does  list?");
    expect(withoutLocations("What does RGB.TXT say?", JSON.stringify({ path: "rgb.txt" }))).toBe(
      "What does  say?",
    );
    // A version, a word, a name with no extension: what to find, or no sign of a file.
    for (const value of ["1.9.0", "v2.1", "ERROR", "XErrorDB", "MPL-2.0", "ord_123"])
      expect(withoutLocations(`Find ${value} here`, JSON.stringify({ pattern: value }))).toBe(
        `Find ${value} here`,
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
    const found = taskSearchSection(message);
    expect(found).toContain('"name": "Okinawa"');
    expect(found).toContain('"code": "JP-47"');
    expect(found).not.toContain('"3166-2": [');
  });
});

describe("a task naming the file the call read by its name alone, with no directory", () => {
  it("leads with the table the task's word names, not a key sharing the file name's parts", async () => {
    const lines = ['manifest-version = "2"', 'date = "2026-04-16"', ""];
    for (const [i, name] of ["cargo", "clippy-preview", "rustfmt-preview", "rustc"].entries()) {
      lines.push(`[pkg.${name}]`, `version = "1.${i + 7}.0"`, "");
      for (let t = 0; t < 40; t++)
        lines.push(
          `[pkg.${name}.target.t${t}]`,
          "available = true",
          `url = "https://static.example.org/dist/${name}-1.95.0-t${t}.tar.gz"`,
          "",
        );
    }
    const { store } = await tempStore();
    const args = JSON.stringify({ path: "multirust-channel-manifest.toml", tail: 0 });
    const record = await store.put(origin("fs__read_text_file", args), lines.join("\n"));
    const message = await defaultHandleMessage(record, store, SCOPE, 5, {
      taskText: "Which version of rustfmt-preview does multirust-channel-manifest.toml list?",
      taskRecord: true,
    });
    const found = taskSearchSection(message);
    expect(found).toContain("[pkg.rustfmt-preview]\n");
    expect(found).toContain('version = "1.9.0"');
    expect(found).not.toContain("manifest-version");
  });
});
