/**
 * A record of a Markdown document says which section it is in (SW-36): the nearest heading
 * above its line, where `#` lines inside fenced code (shell comments) are not headings.
 */
import { describe, expect, it } from "vitest";
import { origin, SCOPE, tempStore } from "../../test/helpers/temp-store.js";
import { recordHeader } from "../surfaces/get-tool-output/match-records.js";
import { recordAround } from "./records.js";

const RUNBOOK = [
  "# Orders runbook", //                                   1
  "",
  "## 1. Restarting the API",
  "",
  "Restart one host at a time.", //                        5
  "",
  "## 2. Pausing the image resizer",
  "",
  "```bash",
  "# scale the resizer down first", //                     10
  "kubectl scale deploy/resizer --replicas=0",
  "```",
  "",
  "Put the shop in read-only mode first if orders could be lost.",
  "", //                                                   15
  "```bash",
  "# then check the queue",
  "kubectl get pods -l app=resizer",
  "```",
  "", //                                                   20
  "## 3. Draining the workers",
  "",
  "Drain the workers before a deploy.",
  "",
].join("\n");

async function recordOf(text: string, line: number, toolName = "fs__read_text_file") {
  const { store } = await tempStore();
  const stored = await store.put(origin(toolName, "{}"), text);
  const opened = await store.open(stored.id, SCOPE);
  try {
    return { kind: stored.kind, id: stored.id, record: await recordAround(opened, { line }) };
  } finally {
    await opened.close();
  }
}

describe("the section of a Markdown record", () => {
  it("is the nearest heading above, past `#` comment lines of fenced code", async () => {
    const { kind, id, record } = await recordOf(RUNBOOK, 14);
    expect(kind).toBe("markdown");
    expect(record.section?.text).toBe("## 2. Pausing the image resizer");
    expect(record.section?.provenance.lineStart).toBe(7);
    expect(recordHeader(id, record)).toContain(
      "; in the section under line 7: ## 2. Pausing the image resizer",
    );
  });

  it("is the heading above the fence for a line inside fenced code", async () => {
    const { record } = await recordOf(RUNBOOK, 18);
    expect(record.section?.text).toBe("## 2. Pausing the image resizer");
  });

  it("is found for a line the record's context starts at a heading", async () => {
    const { record } = await recordOf(RUNBOOK, 23);
    expect(record.section?.text).toBe("## 3. Draining the workers");
  });

  it("is none for a heading line, for lines above every heading, and outside Markdown", async () => {
    expect((await recordOf(RUNBOOK, 21)).record.section).toBeUndefined();
    const preamble = `Owner: platform team.\n\n${RUNBOOK}`;
    expect((await recordOf(preamble, 1)).record.section).toBeUndefined();
    const log = Array.from({ length: 12 }, (_, i) =>
      i === 3 ? "# rotated" : `2026-03-14T08:00:0${i % 10}Z INFO job ${i} done`,
    ).join("\n");
    const logged = await recordOf(log, 9);
    expect(logged.kind).toBe("log");
    expect(logged.record.section).toBeUndefined();
  });
});
