/**
 * Probes of `spillway mcp` (a real GatewaySession in front of real MCP servers run as child
 * processes, a real SDK client): what it answers when things fail, and how it isolates one
 * client session's outputs from another's.
 */
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { testServerSpec } from "../helpers/agent-fixture.js";
import {
  everythingServer,
  startTestGateway,
  type TestGateway,
} from "../helpers/gateway-fixture.js";

const gateways: TestGateway[] = [];
afterEach(async () => {
  while (gateways.length > 0) await gateways.pop()!.close();
});

async function gateway(...args: Parameters<typeof startTestGateway>): Promise<TestGateway> {
  const started = await startTestGateway(...args);
  gateways.push(started);
  return started;
}

async function rejection(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

const text = (result: unknown) =>
  ((result as { content: { type: string; text?: string }[] }).content[0]?.text ?? "") as string;

describe("also noted: errors repeated their MCP prefix", () => {
  it("a gateway error and a server's own error reach the client with the prefix once", async () => {
    const g = await gateway({ servers: { everything: everythingServer() } });
    const ours = await rejection(
      g.client.readResource({ uri: "spillway://outputs/out_0000000000000000" }),
    );
    expect(ours.code).toBe(-32002);
    expect(ours.message).toMatch(/^MCP error -32002: OUTPUT_NOT_FOUND: /);
    expect(ours.message).not.toMatch(/MCP error -?\d+: MCP error/);
    const theirs = await rejection(g.client.readResource({ uri: "test://no-such-resource" }));
    expect(theirs.message).not.toMatch(/MCP error -?\d+: MCP error/);
    const prompt = await rejection(g.client.getPrompt({ name: "no_such_prompt" }));
    expect(prompt.message).not.toMatch(/MCP error -?\d+: MCP error/);
  });
});

describe("also noted: after a second death an upstream server stayed down", () => {
  it("restarts a server that keeps dying, with a growing wait, and says it is down meanwhile", async () => {
    const g = await gateway({ servers: { test: testServerSpec() } });
    const call = (name: string, args: Record<string, unknown> = {}) =>
      g.client.callTool({ name, arguments: args });
    expect(text(await call("echo", { text: "up" }))).toBe("up");
    // First death: restarted at the next call.
    expect((await call("crash", { exit_code: 3 })).isError).toBe(true);
    expect(text(await call("echo", { text: "again" }))).toBe("again");
    // Second death: the next call is told it is down and when it comes back…
    expect((await call("crash", { exit_code: 4 })).isError).toBe(true);
    const down = await call("echo", { text: "too soon" });
    expect(down.isError).toBe(true);
    expect(text(down)).toMatch(
      /"test" is down: it died 2 times in a row.*again at the first call after 1 s/,
    );
    expect(text(down)).toContain("exit code 4");
    // …and after the wait it serves again.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(text(await call("echo", { text: "back" }))).toBe("back");
  });
});
