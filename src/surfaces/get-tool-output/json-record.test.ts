import { describe, expect, it } from "vitest";
import { MAX_RECORD_LINES, recordAround } from "./json-record.js";

const pretty = (value: unknown) => JSON.stringify(value, null, 2).split("\n");

describe("recordAround", () => {
  const lines = pretty({ orders: [{ id: "a", pay: { code: "X" } }, { id: "b" }] });

  it("finds the object holding a member line, nested members included", () => {
    const idLine = lines.indexOf('      "id": "a",') + 1;
    const found = recordAround(lines, 1, idLine);
    expect(found?.lines).toEqual([
      "    {",
      '      "id": "a",',
      '      "pay": {',
      '        "code": "X"',
      "      }",
      "    },",
    ]);
    // A member of the nested object gives the nested object.
    const codeLine = lines.indexOf('        "code": "X"') + 1;
    expect(recordAround(lines, 1, codeLine)?.lines).toEqual([
      '      "pay": {',
      '        "code": "X"',
      "      }",
    ]);
  });

  it("works on a window that starts below line 1", () => {
    const from = 3;
    const idLine = lines.indexOf('      "id": "b"') + 1;
    const found = recordAround(lines.slice(from - 1), from, idLine);
    expect(found).toMatchObject({ start: idLine - 1, end: idLine + 1 });
  });

  it("returns null for a line that is not an object member, and for an object too long to show", () => {
    expect(recordAround(pretty([1, 2, 3]), 1, 2)).toBeNull();
    expect(recordAround(['"id": "x"'], 1, 1)).toBeNull();
    const long = pretty({ id: "z", items: Array.from({ length: MAX_RECORD_LINES }, (_, i) => i) });
    expect(recordAround(long, 1, 2)).toBeNull();
  });
});
