/**
 * A real third-party client: the MCP Inspector's CLI mode (`@modelcontextprotocol/inspector
 * --cli`, pinned in devDependencies) drives the built `spillway mcp` over stdio in front of the
 * everything fixture: it lists the tools, calls one whose result is too large to show, and
 * reads the stored output back as a resource (in the same spillway session, via --session).
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, ensureBuilt } from "../helpers/built-cli.js";
import { everythingServer } from "../helpers/gateway-fixture.js";

const run = promisify(execFile);

function inspectorBin(): string {
  const require = createRequire(import.meta.url);
  const packageJson = require.resolve("@modelcontextprotocol/inspector/package.json");
  const { bin } = require(packageJson) as { bin: Record<string, string> };
  return join(dirname(packageJson), bin.inspector ?? Object.values(bin)[0]!);
}

describe("MCP Inspector CLI against spillway mcp", () => {
  let home: string;
  beforeAll(async () => {
    await ensureBuilt();
    home = await mkdtemp(join(tmpdir(), "spillway-gw-inspector-"));
  });
  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
  });

  /** One inspector invocation: `--method …` against `spillway mcp [gateway args] -- fixture`. */
  async function inspect(method: readonly string[], gateway: readonly string[] = []) {
    const server = everythingServer();
    const { stdout, stderr } = await run(
      process.execPath,
      [
        inspectorBin(),
        "--cli",
        "-e",
        `SPILLWAY_HOME=${home}`,
        ...method,
        "--",
        process.execPath,
        BIN,
        "mcp",
        ...gateway,
        "--",
        server.command,
        ...server.args,
      ],
      { timeout: 90_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, NO_COLOR: "1" } },
    );
    return { json: JSON.parse(stdout) as Record<string, unknown>, stderr };
  }

  it("lists tools, calls one, and reads its stored output as a resource", async () => {
    const listed = await inspect(["--method", "tools/list"]);
    const names = (listed.json.tools as { name: string }[]).map((t) => t.name);
    expect(names).toContain("big_text");
    expect(names.at(-1)).toBe("get_tool_output");

    const called = await inspect([
      "--method",
      "tools/call",
      "--tool-name",
      "big_text",
      "--tool-arg",
      "bytes=100000",
    ]);
    const content = called.json.content as {
      type: string;
      text?: string;
      uri?: string;
      name?: string;
    }[];
    expect(content[0]?.text).toMatch(
      /^\[spillway\] The output of big_text is stored whole as out_\w+ \(/,
    );
    const link = content.find((c) => c.type === "resource_link");
    expect(link?.uri).toBe(`spillway://outputs/${link?.name}`);
    const sessionId = /session (ses_\w+)/.exec(called.stderr)?.[1];
    expect(sessionId, called.stderr).toBeDefined();

    const read = await inspect(
      ["--method", "resources/read", "--uri", `${link?.uri}?lines=2-3`],
      ["--session", sessionId as string],
    );
    const contents = read.json.contents as { uri: string; text: string }[];
    expect(contents[0]?.text).toBe(
      `line 0000002 ${"abcdefghij".repeat(4)}\nline 0000003 ${"abcdefghij".repeat(4)}\n`,
    );
  }, 240_000);
});
