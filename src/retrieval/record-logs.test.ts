import { describe, expect, it } from "vitest";
import { checkedRecord, linesOf } from "./fixtures/record-harness.js";
import {
  GO_TEST_OUTPUT,
  JEST_OUTPUT,
  LOG_WITH_TRACES,
  PYTEST_OUTPUT,
} from "./fixtures/record-shapes.js";
import { lineShape, recordStartShape } from "./record-blocks.js";

describe("log entries with stack traces", () => {
  it("a Java trace: the entry's header line, the exception, its frames and its cause", async () => {
    for (const pattern of ["acct_5521", "HikariPool.getConnection", "... 41 more", "Caused by"]) {
      const record = (await checkedRecord(LOG_WITH_TRACES, pattern)).record;
      expect(record).toMatchObject({ kind: "log-entry", lineStart: 2, lineEnd: 10 });
      expect(record.text.startsWith("2026-03-14 09:26:41,118 ERROR")).toBe(true);
      expect(record.text.endsWith("\t... 41 more")).toBe(true);
    }
  });

  it("a Node trace and a Python traceback, each with its header and last line", async () => {
    const node = (await checkedRecord(LOG_WITH_TRACES, "quote.js:18")).record;
    expect(node).toMatchObject({ kind: "log-entry", lineStart: 12, lineEnd: 17 });
    expect(node.text).toContain("TypeError: Cannot read properties of undefined");
    const python = (await checkedRecord(LOG_WITH_TRACES, "raise ValueError")).record;
    expect(python).toMatchObject({ kind: "log-entry", lineStart: 19, lineEnd: 27 });
    expect(python.text.startsWith("2026-03-14 09:26:43,090 ERROR [py-importer]")).toBe(true);
    expect(python.text.endsWith("ValueError: bad quantity: -3")).toBe(true);
  });

  it("a one-line entry is its line alone", async () => {
    const record = (await checkedRecord(LOG_WITH_TRACES, "ord_7735")).record;
    expect(record).toMatchObject({ kind: "log-entry", lineStart: 28, lineEnd: 28 });
  });

  it("record lines are found by the shape they start with, in any words", () => {
    expect(lineShape("2026-03-14 09:26:41,118 ERROR x")).toBe("9-");
    expect(lineShape("I0314 09:26:41.118 12 server.go:88] started")).toBe("a9");
    expect(lineShape("[pool-1-thread-3] INFO started")).toBe(lineShape("[main] INFO started"));
    expect(lineShape("Caused by: java.io.IOException")).toBe("a");
    expect(lineShape("\tat com.example.Ledger.post(Ledger.java:88)")).toBeNull();
    // The same lines in another language start alike: the words never matter.
    const lines = [
      "[2026-03-14] début",
      "[2026-03-14] 処理が完了しました",
      "Caused by: x",
      "[2026-03-15] fin",
    ];
    expect(recordStartShape(lines)).toBe("[9");
    // Lines that start with words only mark nothing.
    expect(recordStartShape(["FAIL one", "PASS two", "FAIL three", "PASS four"])).toBeNull();
  });
});

describe("test runner failures", () => {
  it("Jest: the ● block with its assertion, code frame and stack", async () => {
    for (const pattern of ["● Cart › applies", "Expected: 90", "toBe(90)", "at Object.toBe"]) {
      const record = (await checkedRecord(JEST_OUTPUT, pattern)).record;
      expect(record.kind).toBe("block");
      expect(record.text.startsWith("  ● Cart › applies the member discount")).toBe(true);
      expect(record.text).toContain("Received: 100");
      expect(record.text.endsWith("at Object.toBe (src/cart.test.js:14:26)")).toBe(true);
      expect(record.text).not.toContain("Test Suites");
    }
  });

  it("pytest: the section between rule lines, with the source, the E lines and the location", async () => {
    const discount = (await checkedRecord(PYTEST_OUTPUT, "E       assert 100 == 90")).record;
    expect(discount.kind).toBe("block");
    expect(discount.text.split("\n")[0]).toMatch(/^_+ test_discount _+$/);
    expect(discount.text).toContain(">       assert cart.total() == 90");
    expect(discount.text.endsWith("tests/test_cart.py:9: AssertionError")).toBe(true);
    const refund = (await checkedRecord(PYTEST_OUTPUT, "E       KeyError")).record;
    expect(refund.text.split("\n")[0]).toMatch(/^_+ test_refund _+$/);
    expect(refund.text).toContain("self = <shop.cart.Cart object");
    expect(refund.text.endsWith("shop/cart.py:31: KeyError")).toBe(true);
    const summary = (await checkedRecord(PYTEST_OUTPUT, "FAILED tests/test_cart.py::test_refund"))
      .record;
    expect(summary.text.split("\n")).toHaveLength(3);
  });

  it("go test: the --- FAIL line with its indented messages", async () => {
    const record = (await checkedRecord(GO_TEST_OUTPUT, "want 90")).record;
    expect(record).toMatchObject({ kind: "block", lineStart: 1, lineEnd: 3 });
    expect(record.text).toBe(linesOf(GO_TEST_OUTPUT, 1, 3));
    const header = (await checkedRecord(GO_TEST_OUTPUT, "--- FAIL: TestRefund")).record;
    expect(header.text).toBe(linesOf(GO_TEST_OUTPUT, 4, 5));
  });
});
