/**
 * A Markdown heading's record is the section it opens (SW-70): the heading and the lines under
 * it up to the next heading of the same or a higher level, as an INI section header's record is
 * its keys. A search that finds the heading's words ("v2.4.0") means what is under it.
 */
import { describe, expect, it } from "vitest";
import { taskSearchSection } from "../../test/helpers/handle-sections.js";
import { origin, SCOPE, tempStore } from "../../test/helpers/temp-store.js";
import { defaultHandleMessage } from "../surfaces/handle-message.js";
import { checkedRecord } from "./fixtures/record-harness.js";

/** A changelog: releases newest first, each a heading, a date and a few notes. */
function changelog(releases = 40): string {
  const lines = ["# Changelog", ""];
  for (let i = releases; i >= 1; i--) {
    const day = String((i % 28) + 1).padStart(2, "0");
    lines.push(
      `## Version 2.${i}.0`,
      "",
      `Released on 2025-${String((i % 12) + 1).padStart(2, "0")}-${day}.`,
      "",
    );
    lines.push(
      `- Added option number ${i} to the parser.`,
      `- Fixed crash ${i * 7} in the writer.`,
      "",
    );
  }
  return lines.join("\n");
}

describe("the record of a Markdown heading", () => {
  it("is the section the heading opens, up to the next heading of its level", async () => {
    const { record } = await checkedRecord(changelog(), "## Version 2.24.0");
    expect(record.kind).toBe("block");
    expect(record.text).toBe(
      [
        "## Version 2.24.0",
        "",
        "Released on 2025-01-25.",
        "",
        "- Added option number 24 to the parser.",
        "- Fixed crash 168 in the writer.",
      ].join("\n"),
    );
  });

  it("holds its subsections, and `#` lines of fenced code are neither headings nor ends", async () => {
    const runbook = [
      "# Runbook",
      "",
      "## Pausing the resizer",
      "",
      "```bash",
      "# scale it down first",
      "kubectl scale deploy/resizer --replicas=0",
      "```",
      "",
      "### If orders could be lost",
      "",
      "Put the shop in read-only mode.",
      "",
      "## Draining the workers",
      "",
      "Drain them before a deploy.",
    ].join("\n");
    const { record } = await checkedRecord(runbook, "## Pausing the resizer");
    expect(record.text.split("\n")[0]).toBe("## Pausing the resizer");
    expect(record.text).toContain("Put the shop in read-only mode.");
    expect(record.text).not.toContain("Draining");
    const comment = await checkedRecord(runbook, "# scale it down first");
    expect(comment.record.text.startsWith("# scale it down first\nkubectl")).toBe(false);
  });

  it("is not a section when another heading follows at once, and is bounded", async () => {
    const nested = [
      "# Guide",
      "",
      "## Install",
      "",
      "Run the installer.",
      "",
      "## Use",
      "",
      "Call it.",
    ];
    const top = await checkedRecord(nested.join("\n"), "# Guide");
    expect(top.record.text).toContain("Run the installer.");
    const empty = ["## Alpha", "## Beta", "", "Text of beta.", "", "More text."].join("\n");
    const alpha = await checkedRecord(empty, "## Alpha");
    expect(alpha.record.text).not.toContain("Text of beta.");
    const long = [
      "## Long",
      ...Array.from({ length: 200 }, (_, i) => `line ${i} of the long section`),
    ];
    const { record } = await checkedRecord(long.join("\n"), "## Long");
    expect(record.lineStart).toBe(1);
    expect(record.lineEnd).toBeLessThanOrEqual(61);
  });
});

describe("the task search on a heading", () => {
  it("shows what is under the heading it found", async () => {
    const { store } = await tempStore();
    const stored = await store.put(origin("fs__read_text_file", "{}"), changelog());
    const message = await defaultHandleMessage(stored, store, SCOPE, 5, {
      taskText: "When was version 2.24.0 released?",
      taskRecord: true,
    });
    const search = taskSearchSection(message);
    expect(search).toContain("| ## Version 2.24.0");
    expect(search).toContain("| Released on 2025-01-25.");
  });
});
