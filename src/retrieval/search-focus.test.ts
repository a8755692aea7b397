import { describe, expect, it } from "vitest";
import { passageFocus } from "./search-focus.js";

describe("passageFocus", () => {
  it("finds the passage holding the most of the words, on its rarest word", () => {
    const text = `${"ann a ".repeat(20)}ann 2 b ${"ann 2 ".repeat(3)}ann zed 2 ${"c ".repeat(40)}`;
    // "zed" is held once, so the passage around it outweighs every other one.
    const at = passageFocus(text, ["ann", "2", "zed"], 12);
    expect(text.slice(at, at + 3)).toBe("zed");
  });

  it("takes the earliest of equal passages, and says -1 when the text holds none of the words", () => {
    const text = "x red blue x x x x x x x x x x red blue x";
    expect(passageFocus(text, ["red", "blue"], 10)).toBe(2);
    expect(passageFocus(text, ["green"], 10)).toBe(-1);
  });

  it("anchors on the rarest word however many common words meet elsewhere", () => {
    // The query's other words meet in one passage; the word held once is alone, far from them.
    const common = "cart paid note ".repeat(5);
    const filler = "x ".repeat(200);
    const text = `${"cart ".repeat(50)}${filler}${common}${filler}order q7v2k ${filler}paid note`;
    const at = passageFocus(text, ["cart", "paid", "note", "q7v2k"], 60);
    expect(text.slice(at, at + 5)).toBe("q7v2k");
  });

  it("counts a word only where it is a word as the search cuts words", () => {
    // "red" inside "bored" and "redo" is not the word red.
    const text = "bored redo bored redo ... the red one";
    expect(passageFocus(text, ["red"], 8)).toBe(text.indexOf(" red ") + 1);
  });

  it("weighs a word the text holds often at little, so the rare word decides", () => {
    const common = "status ok ".repeat(300);
    const text = `${common}status refunded ${common}`;
    const at = passageFocus(text, ["status", "refunded"], 40);
    expect(text.slice(at, at + 8)).toBe("refunded");
  });
});
