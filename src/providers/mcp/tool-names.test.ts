import { describe, expect, it } from "vitest";
import { namespaceTools } from "./tool-names.js";

const SAFE = /^[a-zA-Z0-9_-]{1,64}$/;

describe("namespaceTools", () => {
  it("prefixes safe names with the server and two underscores", () => {
    const named = namespaceTools([
      { server: "fs", toolName: "read_text_file" },
      { server: "git-hub", toolName: "list-issues" },
    ]);
    expect(named.map((t) => t.name)).toEqual(["fs__read_text_file", "git-hub__list-issues"]);
  });

  it("replaces characters providers reject and keeps the original name", () => {
    const [tool] = namespaceTools([{ server: "fs", toolName: "read.file v2" }]);
    expect(tool).toEqual({ name: "fs__read_file_v2", server: "fs", toolName: "read.file v2" });
  });

  it("cuts long names to 64 characters with a hash that keeps them apart", () => {
    const long = "x".repeat(100);
    const named = namespaceTools([
      { server: "srv", toolName: `${long}_a` },
      { server: "srv", toolName: `${long}_b` },
    ]);
    for (const t of named) expect(t.name).toMatch(SAFE);
    expect(named[0]?.name).not.toBe(named[1]?.name);
    expect(named[0]?.name.startsWith("srv__xxxx")).toBe(true);
  });

  it("gives a safe name its plain form even when an unsafe one would clean to it", () => {
    const named = namespaceTools([
      { server: "t", toolName: "read.file" },
      { server: "t", toolName: "read_file" },
    ]);
    expect(named[1]?.name).toBe("t__read_file");
    expect(named[0]?.name).toMatch(/^t__read_file_[0-9a-f]{8}$/);
  });

  it("is deterministic", () => {
    const tools = [
      { server: "s", toolName: "a.b" },
      { server: "s", toolName: "y".repeat(80) },
    ];
    expect(namespaceTools(tools)).toEqual(namespaceTools(tools));
  });
});
