/**
 * Shared pieces of the async tools' end-to-end tests: scripted calls to the test server's `slow`
 * tool, the notice of a request, the test server marked so its processes can be found, and an
 * agent set up over it.
 */
import { randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import {
  type ChatRequest,
  lastMessage,
  type Responder,
  textOf,
  toolCall,
} from "../../src/testing/index.js";
import { agentFixture, testServerSpec } from "./agent-fixture.js";

export type Call = { name: string; arguments: Record<string, unknown> };
export const calls = (...list: Call[]) => ({ toolCalls: list });
export const slow = (seconds: number, text: string, extra: Record<string, unknown> = {}): Call => ({
  name: "test__slow",
  arguments: { seconds, text, ...extra },
});
export const report = (text: string) => toolCall("agent__final_report", { report: text });

/** The System Notice of a request (the last user message). */
export const noticeOf = (request: ChatRequest) => textOf(lastMessage(request));

/** The test MCP server, marked so its processes can be found in /proc. */
export function markedServer(marker: string) {
  const spec = testServerSpec();
  return { ...spec, env: { SPILLWAY_TEST_MARKER: marker } };
}

/** Live processes whose environment holds the marker (Linux /proc). */
export async function processesWith(marker: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = await readFile(`/proc/${entry}/environ`, "latin1");
      if (environ.includes(`SPILLWAY_TEST_MARKER=${marker}`)) pids.push(Number(entry));
    } catch {
      // The process ended while we looked, or is not ours to read: not a live marked process.
    }
  }
  return pids;
}

/** An agent over the marked test server, with a 0.3 s async timer. */
export async function setup(respond: Responder, frontmatter: Record<string, unknown> = {}) {
  const fixture = await agentFixture(respond);
  const marker = randomUUID();
  const agent = await fixture.agent("async", {
    mcpServers: { test: markedServer(marker) },
    maxTurns: 10,
    asyncTimeoutSecs: 0.3,
    ...frontmatter,
  });
  return { fixture, agent, marker };
}
