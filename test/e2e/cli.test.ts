/**
 * End-to-end tests of the `spillway` binary's `outputs put`, `list` and `show`, and its errors
 * and exit codes: each test runs `node dist/cli/main.js` with a temporary --home and checks
 * stdout, stderr and the exit code (reads: cli-reads.test.ts).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { BIN, ROOT } from "../helpers/built-cli.js";
import { outputsCli, sha, TEXT } from "../helpers/outputs-cli.js";

const { home: homeDir, run, ok, putFile } = outputsCli();

describe("outputs put, list, show", () => {
  it("stores a file and prints its id; show has every field and a head/tail synopsis", async () => {
    const id = await putFile(
      "app.log",
      TEXT,
      "--tool",
      "fs__read_file",
      "--args",
      '{"path":"app.log"}',
    );
    expect(id).toMatch(/^out_[0-9a-z]{26}$/);
    const show = await ok(["outputs", "show", id]);
    expect(show.stdout).toMatch(new RegExp(`^id +${id}$`, "m"));
    expect(show.stdout).toMatch(/^tool +fs__read_file$/m);
    expect(show.stdout).toMatch(/^tool args +\{"path":"app.log"\}$/m);
    expect(show.stdout).toMatch(new RegExp(`^sha256 +${sha(TEXT)}$`, "m"));
    expect(show.stdout).toMatch(/^lines +200$/m);
    expect(show.stdout).toContain("first 5 and last 5 of 200 lines:");
    expect(show.stdout).toMatch(/^ +5 {2}line 5 ok ä{5}$/m);
    expect(show.stdout).toMatch(/^ +200 {2}line 200 ok ä{4}$/m);
    expect(show.stdout).not.toContain("line 6 ok");
  });

  it("stores stdin with session, tool, args and call id, streamed whole", async () => {
    const big = `${"x".repeat(99)}\n`.repeat(30_000); // 3 MB through the pipe
    const { stdout } = await ok(
      [
        "outputs",
        "put",
        "--session",
        "ses_pipe",
        "--tool",
        "shell__run",
        "--args",
        '{"cmd":"yes"}',
        "--tool-call-id",
        "call_7",
        "--json",
      ],
      big,
    );
    const record = JSON.parse(stdout);
    expect(record).toMatchObject({
      sessionId: "ses_pipe",
      toolName: "shell__run",
      toolArgs: '{"cmd":"yes"}',
      toolCallId: "call_7",
      status: "ready",
      byteSize: big.length,
      lineCount: 30_000,
      sha256: sha(big),
    });
  });

  it("lists outputs as a table and as JSON, filtered by session and status", async () => {
    const id = await putFile("list.txt", "alpha\nbeta\n", "--session", "ses_list");
    const table = await ok(["outputs", "list", "--session", "ses_list"]);
    const [header, row, ...rest] = table.stdout.trimEnd().split("\n");
    expect(header).toMatch(/^ID +SESSION +TOOL +STATUS +SIZE +LINES +~TOKENS +KIND +CREATED$/);
    expect(row).toMatch(
      new RegExp(
        `^${id} +ses_list +cli__put +ready +11 B +2 +\\d+ +text +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d$`,
      ),
    );
    expect(rest).toEqual([]);
    const all = JSON.parse((await ok(["outputs", "list", "--status", "ready", "--json"])).stdout);
    expect(all.map((r: { id: string }) => r.id)).toContain(id);
    const none = await ok(["outputs", "list", "--session", "ses_nobody"]);
    expect(none.stdout).toContain("No outputs match");
    const second = await putFile("list2.txt", "gamma\n", "--session", "ses_list");
    const paged = JSON.parse(
      (
        await ok([
          "outputs",
          "list",
          "--session",
          "ses_list",
          "--limit",
          "1",
          "--offset",
          "1",
          "--json",
        ])
      ).stdout,
    );
    expect(paged.map((r: { id: string }) => r.id)).toEqual([id]);
    expect(second).not.toBe(id);
  });

  it("refuses content over --max-output-bytes and stores nothing", async () => {
    const result = await run(
      ["outputs", "put", "--session", "ses_max", "--max-output-bytes", "10"],
      "x".repeat(100),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("OUTPUT_TOO_LARGE");
    const listed = JSON.parse(
      (await ok(["outputs", "list", "--session", "ses_max", "--json"])).stdout,
    );
    expect(listed).toEqual([]);
  });

  it("shows a JSON outline for JSON and the size for binary content", async () => {
    const json = await putFile(
      "api.json",
      JSON.stringify({
        items: [
          { id: 1, tags: ["a"] },
          { id: 2, tags: [] },
        ],
        total: 2,
      }),
    );
    const shown = await ok(["outputs", "show", json]);
    expect(shown.stdout).toContain("JSON outline:");
    expect(shown.stdout).toMatch(/\.items: array\[2\]/);
    const bin = await putFile(
      "blob.bin",
      Buffer.from([0, 255, 1, 254, 2]),
      "--binary",
      "--media-type",
      "image/x-test",
    );
    const binary = await ok(["outputs", "show", bin]);
    expect(binary.stdout).toMatch(/^kind +binary$/m);
    expect(binary.stdout).toContain("binary, 5 bytes (5 B), image/x-test");
  });
});

describe("errors and exit codes", () => {
  it("unknown id: OUTPUT_NOT_FOUND, exit 1, a hint to list, no stack trace", async () => {
    const result = await run(["outputs", "show", "out_doesnotexist"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error OUTPUT_NOT_FOUND: No output with id "out_doesnotexist"/);
    expect(result.stderr).toContain("spillway outputs list");
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const json = await run(["outputs", "grep", "out_doesnotexist", "x", "--json"]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).error).toMatchObject({
      code: "OUTPUT_NOT_FOUND",
      details: { outputId: "out_doesnotexist" },
    });
  });

  it("invalid flag values exit 2 and name the flag and what is valid", async () => {
    const id = await putFile("flags.txt", TEXT);
    const lines = await run(["outputs", "slice", id, "--lines", "9:3"]);
    expect(lines.code).toBe(2);
    expect(lines.stderr).toMatch(
      /^error USAGE: option '--lines <A:B>' argument '9:3' is invalid\. Valid: A:B/,
    );
    const number = await run(["outputs", "page", id, "--chars", "12abc"]);
    expect(number.code).toBe(2);
    expect(number.stderr).toContain(
      "'--chars <n>' argument '12abc' is invalid. Valid: a whole number >= 1",
    );
    const args = await run(["outputs", "put", "flags.txt", "--args", "{path: 1}"]);
    expect(args.code).toBe(2);
    expect(args.stderr).toContain(
      "option '--args <json>' argument '{path: 1}' is invalid. It is not valid JSON",
    );
    expect(args.stderr).toContain("Valid: JSON text");
    const mixed = await run(["outputs", "slice", id, "--lines", "1:2", "--anchor", "x"]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain("slice takes one addressing style");
  });

  it("unknown commands and options exit 2; help exits 0", async () => {
    const command = await run(["outputs", "frobnicate"]);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain("error USAGE: unknown command 'frobnicate'");
    const option = await run(["outputs", "list", "--bogus"]);
    expect(option.code).toBe(2);
    expect(option.stderr).toContain("unknown option '--bogus'");
    const conflict = await run([
      "outputs",
      "page",
      "out_x",
      "--chars",
      "5",
      "--tokens",
      "5",
      "--json",
    ]);
    expect(conflict.code).toBe(2);
    expect(JSON.parse(conflict.stdout).error.code).toBe("USAGE");
    const help = await run(["outputs", "grep", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("--ignore-case");
    // Help without a command lists every command (they load lazily, so this loads them all).
    const top = await run(["--help"]);
    expect(top.code).toBe(0);
    for (const name of ["run", "sessions", "outputs", "models", "serve", "mcp"])
      expect(top.stdout).toMatch(new RegExp(`^\\s+${name}\\b`, "m"));
  });

  it("--version prints the package's version without loading any command", async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
      version: string;
    };
    for (const flag of ["--version", "-V"]) {
      const result = await run([flag]);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(`${version}\n`);
    }
  });

  it("a spillway error from the core exits 1 with its code", async () => {
    const id = await putFile("range.txt", "one\ntwo\n");
    const result = await run(["outputs", "slice", id, "--lines", "5:6"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error INVALID_RANGE: lineStart=5 is out of range/);
    const file = await run(["outputs", "put", "no-such-file.txt"]);
    expect(file.code).toBe(1);
    expect(file.stderr).toMatch(/^error INPUT_UNREADABLE: Cannot read no-such-file.txt/);
  });

  it("stops quietly when the reader of stdout goes away", async () => {
    const id = await putFile("pipe.txt", "0123456789\n".repeat(400_000));
    const child = spawn(process.execPath, [BIN, "--home", homeDir(), "outputs", "export", id]);
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    await new Promise((done) => child.stdout.once("data", done));
    child.stdout.destroy();
    const code = await new Promise((done) => child.on("close", done));
    expect(code).toBe(0);
    expect(stderr).toBe("");
  });
});
