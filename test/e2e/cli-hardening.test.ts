/**
 * The CLI under careless use: unreadable stdin, terminal escapes in stored content and names,
 * provenance at the edges of an output.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt } from "../helpers/built-cli.js";
import { runShell, shq } from "../helpers/cli-shell.js";

let home: string;
let work: string;

beforeAll(async () => {
  await ensureBuilt();
  home = await mkdtemp(join(tmpdir(), "spillway-hard-home-"));
  work = await mkdtemp(join(tmpdir(), "spillway-hard-work-"));
});

afterAll(async () => {
  await rm(home, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

const sw = (args: string[], redirections = "") => runShell(["--home", home, ...args], redirections);

async function storedCount(): Promise<number> {
  const list = await sw(["outputs", "list", "--json"]);
  return (JSON.parse(list.stdout) as unknown[]).length;
}

describe("outputs put from an unreadable stdin", () => {
  it.each([
    ["a directory", "< /tmp", "a directory"],
    ["closed", "<&-", "closed"],
  ])(
    "stdin that is %s fails with INPUT_UNREADABLE and stores nothing",
    async (_label, redirect, says) => {
      const before = await storedCount();
      const result = await sw(["outputs", "put"], redirect);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("error INPUT_UNREADABLE:");
      expect(result.stderr).toContain(says);
      expect(result.stdout).toBe("");
      expect(await storedCount()).toBe(before);
    },
  );

  it("stdin from a file still stores, even an empty one", async () => {
    for (const content of ["redirected\n", ""]) {
      const file = join(work, "in.txt");
      await writeFile(file, content);
      const result = await sw(["outputs", "put"], `< ${shq(file)}`);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^out_/);
    }
  });
});

describe("terminal escape sequences from content and names", () => {
  const ESC = "\u001b";
  const hostile = `${ESC}[2J${ESC}]0;pwned\u0007 clear\u009b31m red \u202egnp.exe`;

  it("outputs show and list print them escaped, never raw", async () => {
    const file = join(work, "hostile.txt");
    await writeFile(file, `first ${hostile}\nsecond line\n`);
    const put = await sw([
      "outputs",
      "put",
      file,
      "--session",
      `ses_${ESC}[31m`,
      "--tool",
      `tool${ESC}[1A`,
      "--args",
      JSON.stringify({ note: hostile }),
    ]);
    expect(put.code, put.stderr).toBe(0);
    const id = put.stdout.trim();
    for (const args of [
      ["outputs", "show", id],
      ["outputs", "list"],
    ]) {
      const result = await sw(args);
      expect(result.code, result.stderr).toBe(0);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting they are gone
      expect(result.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
      expect(result.stdout).toContain("\\x1b[");
    }
    const show = await sw(["outputs", "show", id]);
    expect(show.stdout).toContain("\\x1b[2J\\x1b]0;pwned\\x07 clear\\x9b31m red \\u202egnp.exe");
    // The stored content itself is untouched.
    const exported = await sw(["outputs", "export", id]);
    expect(exported.stdout).toBe(`first ${hostile}\nsecond line\n`);
  });
});

describe("provenance at the end of an output", () => {
  it("an empty page after the last line names no line past the end", async () => {
    const file = join(work, "thousand.txt");
    const text = Array.from({ length: 1000 }, (_, i) => `line ${i + 1}\n`).join("");
    await writeFile(file, text);
    const id = (await sw(["outputs", "put", file])).stdout.trim();
    const page = await sw(["outputs", "page", id, "--cursor", String(text.length)]);
    expect(page.code, page.stderr).toBe(0);
    expect(page.stderr).toContain("lines none of 1000");
    expect(page.stderr).not.toContain("1001");
    const empty = join(work, "empty.txt");
    await writeFile(empty, "");
    const emptyId = (await sw(["outputs", "put", empty])).stdout.trim();
    const slice = await sw(["outputs", "slice", emptyId]);
    expect(slice.code, slice.stderr).toBe(0);
    expect(slice.stderr).toContain("lines none of 0");
  });
});

describe("interrupted puts leave no temp files", () => {
  /** Starts `outputs put` from a pipe, feeds it 6 MB and waits for its temp file. */
  async function interruptedPut(storeHome: string) {
    const { spawn } = await import("node:child_process");
    const { readdir } = await import("node:fs/promises");
    const { BIN } = await import("../helpers/built-cli.js");
    const child = spawn(process.execPath, [BIN, "--home", storeHome, "outputs", "put"], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    child.stdin.on("error", () => {}); // reported below through stderr and the exit code
    let ended: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
      child.on("exit", (code, signal) => {
        ended = { code, signal };
        done(ended);
      }),
    );
    child.stdin.write(`${"z".repeat(1023)}\n`.repeat(6 * 1024));
    const tmp = join(storeHome, "tmp");
    for (let i = 0; i < 600; i++) {
      const parts = (await readdir(tmp).catch(() => [] as string[])).filter((n) =>
        n.endsWith(".part"),
      );
      if (parts.length > 0) return { child, exited, tmp };
      if (ended) throw new Error(`the put ended early: ${JSON.stringify(ended)} ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.kill("SIGKILL");
    throw new Error("the put never created its temp file");
  }

  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)("%s removes the temp file and exits %d", async (signal, code) => {
    const storeHome = await mkdtemp(join(tmpdir(), "spillway-sig-"));
    try {
      const { child, exited, tmp } = await interruptedPut(storeHome);
      child.kill(signal);
      expect(await exited).toEqual({ code, signal: null });
      const { readdir } = await import("node:fs/promises");
      expect(await readdir(tmp)).toEqual([]);
    } finally {
      await rm(storeHome, { recursive: true, force: true });
    }
  });

  it("after SIGKILL, store gc removes the temp file at once, whatever its age", async () => {
    const storeHome = await mkdtemp(join(tmpdir(), "spillway-sig-"));
    try {
      const { child, exited, tmp } = await interruptedPut(storeHome);
      child.kill("SIGKILL");
      expect((await exited).signal).toBe("SIGKILL");
      const { readdir } = await import("node:fs/promises");
      expect((await readdir(tmp)).length).toBe(1);
      const stats = await runShell(["--home", storeHome, "store", "stats", "--json"]);
      expect(JSON.parse(stats.stdout).tempFiles).toMatchObject({ count: 1, stale: 1 });
      const gc = await runShell(["--home", storeHome, "store", "gc"]);
      expect(gc.code, gc.stderr).toBe(0);
      expect(gc.stdout).toMatch(/temp files +1 \(/);
      expect(await readdir(tmp)).toEqual([]);
    } finally {
      await rm(storeHome, { recursive: true, force: true });
    }
  });
});
