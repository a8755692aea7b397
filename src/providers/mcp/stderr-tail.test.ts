import { describe, expect, it } from "vitest";
import { StderrTail } from "./stderr-tail.js";

describe("StderrTail", () => {
  it("keeps everything while under the limit", () => {
    const tail = new StderrTail(100);
    tail.push(Buffer.from("starting\n"));
    tail.push(Buffer.from("fatal: no config\n"));
    expect(tail.text()).toBe("starting\nfatal: no config");
  });

  it("keeps only the last maxBytes and marks the cut", () => {
    const tail = new StderrTail(10);
    for (let i = 0; i < 1_000; i++) tail.push(Buffer.from(`line ${i}\n`));
    tail.push(Buffer.from("0123456789ABCDEF"));
    expect(tail.text()).toBe("…6789ABCDEF");
  });
});
