/**
 * What the gateway tells a client's model at initialize: its own instructions first, in the
 * terms of the handle message it sends (SW-38: the lines it shows are the output's own), then
 * each server's, named.
 */
import { describe, expect, it } from "vitest";
import type { McpServerHandshake } from "../providers/mcp/index.js";
import { GATEWAY_INSTRUCTIONS, gatewayInstructions } from "./advertised.js";

describe("gatewayInstructions", () => {
  it("says a handle message shows some of the output's lines, never that it holds none", () => {
    expect(GATEWAY_INSTRUCTIONS).toContain("shows only some of its lines");
    expect(GATEWAY_INSTRUCTIONS).toContain("read the rest with get_tool_output");
    expect(GATEWAY_INSTRUCTIONS).not.toContain("NOT in");
  });

  it("puts each server's instructions after its own, named", () => {
    const handshake = (instructions?: string) =>
      ({ capabilities: {}, ...(instructions ? { instructions } : {}) }) as McpServerHandshake;
    const text = gatewayInstructions(
      new Map([
        ["fs", handshake("Paths are relative to the root.")],
        ["quiet", handshake()],
      ]),
    );
    expect(text).toBe(`${GATEWAY_INSTRUCTIONS}\n\nServer "fs": Paths are relative to the root.`);
  });
});
