/**
 * A report may name the place a call read (SW-71): a path a tool accepted exists, though a
 * file's text does not repeat its own path, so the check for values no tool result showed does
 * not send such a report back. A path only a failed call named is still checked.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { agentFixture } from "../../test/helpers/agent-fixture.js";
import { filesystemServer } from "../../test/helpers/gateway-fixture.js";
import { toolCall } from "../testing/index.js";
import { runAgent } from "./run-agent.js";

const ERRNO = "const (\n\tENOTCONN        = Errno(0x6b)\n\tENOTRECOVERABLE = Errno(0x83)\n)\n";

/**
 * A session that reads `fileName` under the server's root by its absolute path, then reports
 * `report(path)` (the same again if it is sent back); the root holds the errno table only.
 */
async function session(fileName: string, report: (path: string) => string) {
  let path = "";
  const fixture = await agentFixture((_request, context) =>
    context.callIndex === 0
      ? toolCall("fs__read_text_file", { path })
      : toolCall("agent__final_report", { report: report(path) }),
  );
  const root = join(fixture.dir, "files");
  path = join(root, fileName);
  await mkdir(root, { recursive: true });
  await writeFile(join(root, "zerrors_linux_amd64.go"), ERRNO);
  const agent = await fixture.agent("places", {
    mcpServers: { fs: filesystemServer(root) },
    maxTurns: 6,
  });
  const result = await runAgent({
    agent,
    prompt: "Which Errno value does ENOTRECOVERABLE have?",
    stores: fixture.stores,
    cwd: fixture.dir,
  });
  const calls = await fixture.stores.history.toolCalls(result.sessionId);
  return { result, path, calls };
}

describe("a report naming the file a call read", () => {
  it("is taken: the path was read with success, though no result wrote it", async () => {
    const { result, path, calls } = await session(
      "zerrors_linux_amd64.go",
      (p) => `In ${p}, ENOTRECOVERABLE is Errno(0x83).`,
    );
    expect(calls.map((c) => [c.toolName, c.status])).toEqual([
      ["fs__read_text_file", "ok"],
      ["agent__final_report", "ok"],
    ]);
    expect(result.status).toBe("completed");
    expect(result.report).toBe(`In ${path}, ENOTRECOVERABLE is Errno(0x83).`);
  });

  it("is sent back once when only a failed call named the path", async () => {
    const { result, calls } = await session(
      "errno-2026.txt",
      (p) => `${p} holds ENOTRECOVERABLE = 131.`,
    );
    expect(calls.map((c) => [c.toolName, c.status])).toEqual([
      ["fs__read_text_file", "error"],
      ["agent__final_report", "ok"],
      ["agent__final_report", "ok"],
    ]);
    expect(result.status).toBe("completed");
  });
});
