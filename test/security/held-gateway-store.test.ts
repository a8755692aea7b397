/**
 * Probes that held: the gateway keeps one client session's outputs from another's (references,
 * resources, reads) and survives an upstream crash mid-call; the store refuses a symlinked
 * home and says what to do about a read-only one (the built CLI, run as an unprivileged user).
 */
import { execFileSync } from "node:child_process";
import { chmod, mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { testServerSpec } from "../helpers/agent-fixture.js";
import { BIN, CLI_ENV, ensureBuilt, runCli } from "../helpers/built-cli.js";
import {
  everythingServer,
  startTestGateway,
  type TestGateway,
} from "../helpers/gateway-fixture.js";
import { tempDir } from "../helpers/temp-store.js";

const gateways: TestGateway[] = [];
afterEach(async () => {
  while (gateways.length > 0) await gateways.pop()!.close({ keepHome: true });
});

const text = (result: unknown) =>
  ((result as { content: { type: string; text?: string }[] }).content[0]?.text ?? "") as string;

/** Two gateway sessions (two clients) over one store, in front of the everything fixture. */
async function twoSessions(): Promise<[TestGateway, TestGateway]> {
  const home = await tempDir();
  const a = await startTestGateway({ home, servers: { everything: everythingServer() } });
  gateways.push(a);
  const b = await startTestGateway({ home, servers: { everything: everythingServer() } });
  gateways.push(b);
  return [a, b];
}

/** The output id a large result was stored as (its handle message names it). */
async function storedLarge(g: TestGateway, needle: string): Promise<string> {
  const result = await g.client.callTool({
    name: "big_text",
    arguments: { bytes: 200_000, needle },
  });
  const id = /out_[0-9a-z]+/.exec(text(result))?.[0];
  expect(id, text(result)).toBeDefined();
  return id!;
}

describe("held: the gateway isolates client sessions", () => {
  it("handle references and reads of another session's output are not found", async () => {
    const [a, b] = await twoSessions();
    const id = await storedLarge(a, "NEEDLE-A-SECRET");
    const mine = await a.client.callTool({
      name: "get_tool_output",
      arguments: { id, mode: "grep", pattern: "NEEDLE-A-SECRET" },
    });
    expect(text(mine)).toContain("NEEDLE-A-SECRET");
    const read = await b.client.callTool({
      name: "get_tool_output",
      arguments: { id, mode: "grep", pattern: "NEEDLE-A-SECRET" },
    });
    expect(read.isError).toBe(true);
    expect(text(read)).toContain("OUTPUT_NOT_FOUND");
    const referenced = await b.client.callTool({
      name: "echo",
      arguments: { text: `spillway://outputs/${id}` },
    });
    expect(referenced.isError).toBe(true);
    expect(text(referenced)).not.toContain("NEEDLE-A-SECRET");
  });

  it("resources: another session's outputs are neither listed nor readable", async () => {
    const [a, b] = await twoSessions();
    const id = await storedLarge(a, "NEEDLE-A-RESOURCE");
    const listed = await b.client.listResources();
    expect(listed.resources.map((r) => r.uri)).not.toContain(`spillway://outputs/${id}`);
    const error = await b.client
      .readResource({ uri: `spillway://outputs/${id}` })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32002);
    const own = await a.client.readResource({ uri: `spillway://outputs/${id}?lines=1-1` });
    expect(own.contents).toHaveLength(1);
  });

  it("an upstream server crashing mid-call fails that call clearly, and the gateway serves on", async () => {
    const g = await startTestGateway({ servers: { test: testServerSpec() } });
    gateways.push(g);
    const crashed = await g.client.callTool({ name: "crash", arguments: { exit_code: 7 } });
    expect(crashed.isError).toBe(true);
    expect(text(crashed)).toMatch(
      /MCP_SERVER_FAILED.*exited while running tool test__crash \(exit code 7\)/,
    );
    expect(text(await g.client.callTool({ name: "echo", arguments: { text: "alive" } }))).toBe(
      "alive",
    );
  });
});

describe("held: the store's home", () => {
  it("refuses a symlinked home component and leaves its target untouched", async () => {
    await ensureBuilt();
    const dir = await tempDir();
    const target = join(dir, "elsewhere");
    await mkdir(target);
    const home = join(dir, "home");
    await mkdir(home);
    await symlink(target, join(home, "blobs"));
    const run = await runCli(["outputs", "list"], { cwd: dir, home });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("is a symbolic link; spillway expects a directory there");
    expect(execFileSync("ls", ["-A", target], { encoding: "utf8" })).toBe("");
  });

  it("says what to do with a home it cannot write (run as an unprivileged user)", async () => {
    await ensureBuilt();
    const dir = await mkdtemp(join(tmpdir(), "spillway-ro-"));
    try {
      await chmod(dir, 0o755);
      const home = join(dir, "home");
      await mkdir(home, { mode: 0o555 });
      await chmod(home, 0o555);
      let stderr = "";
      try {
        execFileSync(
          "setpriv",
          [
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            process.execPath,
            BIN,
            "--home",
            home,
            "outputs",
            "list",
          ],
          { env: CLI_ENV, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] },
        );
      } catch (error) {
        stderr = (error as { stderr: string }).stderr;
      }
      expect(stderr).toMatch(
        /^error STORE_UNAVAILABLE: Cannot open the store at .*EACCES.*Set SPILLWAY_HOME \(or --home\) to a directory you can write\./,
      );
      expect(stderr).not.toMatch(/\n\s+at /);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
