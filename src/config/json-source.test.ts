import { describe, expect, it } from "vitest";
import { findJsonSyntaxError } from "./json-source.js";
import { didYouMean } from "./suggest.js";

describe("findJsonSyntaxError", () => {
  it("accepts everything JSON.parse accepts", () => {
    for (const text of [
      '{"a": [1, -2.5e3, true, false, null, "x\\u00e9\\n"]}',
      "[]",
      " 0 ",
      '"s"',
      "{}",
    ]) {
      expect(JSON.parse(text)).toBeDefined();
      expect(findJsonSyntaxError(text)).toBeUndefined();
    }
  });

  it.each([
    ['{\n  "a": }', 2, 8, 'expected a value, found "}"'],
    ['{"a": 1,}', 1, 9, "expected a property name in double quotes"],
    ["{'a': 1}", 1, 2, "expected a property name in double quotes"],
    ['{"a" 1}', 1, 6, 'expected ":"'],
    ["[1 2]", 1, 4, 'expected "," or "]"'],
    ['{"a": tru}', 1, 7, "expected true"],
    ['{"a": "x', 1, 9, "expected a closing quote"],
    ['{"a": 01}', 1, 8, 'expected "," or "}"'],
    ["{} {}", 1, 4, "expected the end of the document"],
    ["", 1, 1, "expected a value, found the end of the file"],
  ])("%j → line %i column %i", (text, line, column, reason) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(findJsonSyntaxError(text)).toMatchObject({ line, column });
    expect(findJsonSyntaxError(text)?.reason).toContain(reason);
  });
});

describe("didYouMean", () => {
  it.each([
    ["maxTurn", "maxTurns"],
    ["max_turns", "maxTurns"],
    ["MAXTURNS", "maxTurns"],
    ["tool-output", "toolOutput"],
    ["mcpServer", "mcpServers"],
    ["strem", "stream"],
    ["asnyc", "async"],
    ["colour", undefined],
  ])("%s → %s", (word, expected) => {
    expect(didYouMean(word, ["maxTurns", "toolOutput", "mcpServers", "stream", "async"])).toBe(
      expected,
    );
  });
});
