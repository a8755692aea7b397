import { describe, expect, it } from "vitest";
import { checkedRecord } from "./fixtures/record-harness.js";
import { CI_JOB_LOG, ciStamped, LOG_WITH_TRACES } from "./fixtures/record-shapes.js";
import { lineStamp, withoutStamp } from "./record-stamps.js";

const STAMP = "9-9-9a9:9:9.9a";

describe("stamped logs: every line starts with the runner's timestamp", () => {
  it("a Java trace is one entry: the exception, its frames and every cause", async () => {
    for (const pattern of [
      "IllegalStateException",
      "DefaultFactory.invoke",
      "Flyway",
      "4361.pem",
    ]) {
      const record = (await checkedRecord(CI_JOB_LOG, pattern)).record;
      expect(record, pattern).toMatchObject({ kind: "log-entry", lineStart: 10, lineEnd: 18 });
      expect(record.text).toContain("Caused by: java.nio.file.NoSuchFileException");
      expect(record.text.endsWith("\t... 70 more")).toBe(true);
    }
  });

  it("the lines around a trace are entries of their own", async () => {
    // The test's FAILED line above the trace and the PASSED line below it stand alone.
    for (const [pattern, line] of [
      ["saves_and_loads_an_order", 9],
      ["verifies_the_signature", 19],
    ] as const) {
      const record = (await checkedRecord(CI_JOB_LOG, pattern)).record;
      expect(record, pattern).toMatchObject({ kind: "log-entry", lineStart: line, lineEnd: line });
    }
  });

  it("a Python traceback is an entry up to its last frame, a stamped blank line ends an entry", async () => {
    const record = (await checkedRecord(CI_JOB_LOG, "line 42")).record;
    expect(record).toMatchObject({ kind: "log-entry", lineStart: 22, lineEnd: 24 });
    expect(record.text).not.toContain("Run python");
    // The exception's own line follows the frames unindented, as the next entry would: nothing
    // in its form ties it to them, so it stands alone.
    expect((await checkedRecord(CI_JOB_LOG, "ValueError: bad")).record.text).not.toContain("File");
  });

  it("a stamped application log keeps its own entries, judged after the stamp", async () => {
    const stamped = ciStamped(LOG_WITH_TRACES);
    for (const pattern of ["acct_5521", "HikariPool.getConnection", "... 41 more"]) {
      const record = (await checkedRecord(stamped, pattern)).record;
      expect(record, pattern).toMatchObject({ kind: "log-entry", lineStart: 2, lineEnd: 10 });
    }
    const python = (await checkedRecord(stamped, "raise ValueError")).record;
    expect(python).toMatchObject({ kind: "log-entry", lineStart: 19, lineEnd: 27 });
    expect(python.text.endsWith("ValueError: bad quantity: -3")).toBe(true);
  });

  it("a stamp is a field of one shape on nearly every line, indented lines included", () => {
    const ci = CI_JOB_LOG.split("\n");
    expect(lineStamp(ci)).toBe(STAMP);
    // An application log stamps the lines that open entries, not its frames: no stamp.
    expect(lineStamp(LOG_WITH_TRACES.split("\n"))).toBeNull();
    // Nor lines stamped alike whose program never indents (no evidence the stamp is the runner's).
    const flat = Array.from({ length: 20 }, (_, i) => `2026-03-14T09:26:${10 + i}Z INFO step ${i}`);
    expect(lineStamp(flat)).toBeNull();
    // Too few lines to tell.
    expect(lineStamp(ci.slice(0, 6))).toBeNull();
    // A field of words on every line is not a stamp.
    expect(lineStamp(ci.map((l) => `worker ${withoutStamp(l, STAMP)}`))).toBeNull();
  });

  it("takes off the stamp and one space, keeping the program's indentation", () => {
    expect(withoutStamp("2026-03-20T07:35:45.2827583Z \tat a.B.c(B.java:83)", STAMP)).toBe(
      "\tat a.B.c(B.java:83)",
    );
    expect(withoutStamp("2026-03-20T07:35:45.2827583Z   shell: bash", STAMP)).toBe("  shell: bash");
    expect(withoutStamp("Caused by: x", STAMP)).toBe("Caused by: x");
  });
});
