import { describe, expect, it } from "vitest";
import { detectKind } from "./kinds.js";

function kindOf(text: string) {
  return detectKind({
    head: text.slice(0, 65_536),
    tail: text.slice(-4096),
    totalChars: text.length,
    headIsWhole: text.length <= 65_536,
  });
}

describe("detectKind", () => {
  it.each([
    ['{"a": [1, 2, {"b": null}]}', "json"],
    ["[1, 2, 3]", "json"],
    ['{"n":1}\n{"n":2}\n{"n":3}\n', "ndjson"],
    ['id,name,score\n1,ann,3.5\n2,bob,4\n3,"c, d",1\n', "csv"],
    ["a\tb\tc\n1\t2\t3\n4\t5\t6\n", "csv"],
    ['<?xml version="1.0"?>\n<root><a>1</a></root>\n', "xml"],
    ["<!DOCTYPE html>\n<html><head><title>x</title></head><body></body></html>", "html"],
    ["# Title\n\nSome text.\n\n## Section\n- item\n- item\n", "markdown"],
    [
      "2026-01-01T00:00:00Z INFO start\n2026-01-01T00:00:01Z WARN slow\n2026-01-01T00:00:02Z ERROR boom\n",
      "log",
    ],
    ["Jan  5 10:00:00 host sshd[1]: Accepted\nJan  5 10:00:01 host sshd[1]: closed\n", "log"],
    ["just some prose, nothing more.\nsecond line of prose.\n", "text"],
    ["", "text"],
  ])("%j is %s", (text, kind) => {
    expect(kindOf(text)).toBe(kind);
  });

  it("does not call a truncated-looking brace text JSON when it is whole and invalid", () => {
    expect(kindOf("{ not json }")).not.toBe("json");
  });

  it("recognizes a large JSON document from its head and tail", () => {
    const big = JSON.stringify({ items: Array.from({ length: 20_000 }, (_, i) => ({ i })) });
    expect(big.length).toBeGreaterThan(65_536);
    expect(kindOf(big)).toBe("json");
  });
});
