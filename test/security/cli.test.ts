/**
 * Probes of the built CLI (`node dist/cli/main.js`): terminal escapes in stored data never
 * reach the terminal, and `outputs put` refuses what is not a regular file at once.
 */
import { execFileSync, spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type Responder, toolCall, toolMessages } from "../../src/testing/index.js";
import { agentFixture, testServerSpec } from "../helpers/agent-fixture.js";
import { BIN, CLI_ENV, ensureBuilt, runCli } from "../helpers/built-cli.js";
import { tempDir } from "../helpers/temp-store.js";

beforeAll(ensureBuilt, 120_000);

/** What a hostile output carries: OSC 0 (title), OSC 52 (clipboard), clear screen, cursor home, C1 CSI, DEL, a bidi override. */
const HOSTILE =
  "title\u001b]0;pwned\u0007 clip\u001b]52;c;cHduZWQ=\u0007 clear\u001b[2J\u001b[H c1\u009b2J del\u007f bidi\u202egnp.exe pwned\n";
/** Anything a terminal acts on, raw. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: this is what must never be printed
const RAW_CONTROL = /[\u001b\u0007\u007f-\u009f\u202e]/;

/** Runs the built CLI with stdout and stderr on a pseudo-terminal (util-linux `script`). */
function onTerminal(args: readonly string[], home: string, cwd: string): string {
  const command = [process.execPath, BIN, "--home", home, ...args]
    .map((word) => `'${word.replaceAll("'", `'"'"'`)}'`)
    .join(" ");
  return execFileSync("script", ["-qec", command, "/dev/null"], {
    cwd,
    env: { ...CLI_ENV, TERM: "xterm" },
    encoding: "utf8",
  });
}

describe("defect: terminal escapes in stored data reached the terminal", () => {
  it("put, grep, slice, page, export and show print controls from content, tool names and session ids escaped", async () => {
    const dir = await tempDir();
    const home = join(dir, "home");
    const file = join(dir, "hostile.txt");
    await writeFile(file, HOSTILE);
    const session = "ses\u001b]0;owned\u0007";
    const tool = "tool\u001b[2J";
    const put = await runCli(["outputs", "put", file, "--session", session, "--tool", tool], {
      cwd: dir,
      home,
    });
    expect(put.code, put.stderr).toBe(0);
    expect(put.stderr).not.toMatch(RAW_CONTROL);
    expect(put.stderr).toContain("ses\\x1b]0;owned\\x07");
    const id = put.stdout.trim();
    const piped = async (args: string[]) => {
      const run = await runCli(args, { cwd: dir, home });
      expect(run.code, run.stderr).toBe(0);
      return run;
    };
    // Display formats are escaped wherever they go.
    for (const args of [
      ["outputs", "grep", id, "pwned"],
      ["outputs", "list"],
      ["outputs", "show", id],
      ["outputs", "json", id, "$"],
    ]) {
      const run = await runCli(args, { cwd: dir, home });
      expect(`${run.stdout}${run.stderr}`, args.join(" ")).not.toMatch(RAW_CONTROL);
    }
    const grep = await piped(["outputs", "grep", id, "pwned"]);
    expect(grep.stdout).toContain("\\x1b]0;pwned\\x07");
    // Content piped elsewhere stays byte for byte (a file gets what was stored).
    expect((await piped(["outputs", "slice", id])).stdout).toBe(HOSTILE);
    expect((await piped(["outputs", "export", id])).stdout).toBe(HOSTILE);
    // On a terminal, content is shown escaped; its lines stay lines.
    for (const args of [
      ["outputs", "slice", id],
      ["outputs", "page", id],
      ["outputs", "export", id],
      ["outputs", "grep", id, "pwned"],
      ["outputs", "show", id],
    ]) {
      const shown = onTerminal(args, home, dir);
      expect(shown, args.join(" ")).not.toMatch(RAW_CONTROL);
      expect(shown, args.join(" ")).toContain("\\x1b[2J");
    }
  });

  it("sessions show and run print a session's prompt, tool results and report escaped", async () => {
    const respond: Responder = (request) =>
      toolMessages(request).length === 0
        ? toolCall("test__echo", { text: HOSTILE })
        : toolCall("agent__final_report", { report: `report ${HOSTILE}` });
    const fixture = await agentFixture(respond);
    const agent = await fixture.agent("echo", {
      mcpServers: { test: testServerSpec() },
      async: false,
    });
    const at = { cwd: fixture.dir, home: fixture.home };
    const run = await runCli(["run", agent, `prompt ${HOSTILE}`], at);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(RAW_CONTROL);
    // The report is content: piped, it is exactly what the model wrote.
    expect(run.stdout).toBe(`report ${HOSTILE}`);
    const [session] = await fixture.stores.history.listSessions({ parentSessionId: null });
    const show = await runCli(["sessions", "show", session!.id, "--full"], at);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).not.toMatch(RAW_CONTROL);
    expect(show.stdout).toContain("\\x1b]52;c;cHduZWQ=\\x07");
    const list = await runCli(["sessions", "list"], at);
    expect(list.stdout).not.toMatch(RAW_CONTROL);
    const json = await runCli(["--json", "sessions", "show", session!.id], at);
    expect(json.stdout).not.toMatch(RAW_CONTROL);
    expect(JSON.stringify(JSON.parse(json.stdout))).toContain("\\u001b]52");
  });

  it("an error message quoting stored data is escaped too", async () => {
    const dir = await tempDir();
    const run = await runCli(["outputs", "show", "out_\u001b]0;x\u0007"], {
      cwd: dir,
      home: join(dir, "home"),
    });
    expect(run.code).toBe(1);
    expect(run.stderr).not.toMatch(RAW_CONTROL);
  });
});

describe("defect: outputs put FIFO hung forever", () => {
  it("refuses a FIFO, a directory and a device at once, naming the path and what is valid", async () => {
    const dir = await tempDir();
    const fifo = join(dir, "pipe");
    execFileSync("mkfifo", [fifo]);
    for (const [path, what] of [
      [fifo, "a named pipe (FIFO)"],
      [dir, "a directory"],
      ["/dev/zero", "a character device"],
    ] as const) {
      const run = await runCli(["outputs", "put", path], { cwd: dir, home: join(dir, "home") });
      expect(run.code, path).toBe(1);
      expect(run.stderr).toContain(`Cannot store ${path}: it is ${what}.`);
      expect(run.stderr).toContain("regular file, or stdin");
      // Refused before it waited on anything (a FIFO without a writer blocks an open forever).
      expect(run.ms).toBeLessThan(10_000);
    }
  });

  it("still stores stdin, a pipe included", async () => {
    const dir = await tempDir();
    const home = join(dir, "home");
    const child = spawn(process.execPath, [BIN, "--home", home, "outputs", "put"], {
      env: CLI_ENV,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.stdin.end("from a pipe\n");
    const code = await new Promise<number | null>((done) => child.on("close", done));
    expect(code, err).toBe(0);
    const slice = await runCli(["outputs", "slice", out.trim()], { cwd: dir, home });
    expect(slice.stdout).toBe("from a pipe\n");
  });
});
