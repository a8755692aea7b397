/**
 * End-to-end tests of the `spillway` binary: each test runs `node dist/cli/main.js` with a
 * temporary --home and checks stdout, stderr and the exit code. The binary is built once
 * (skipped when dist is newer than every source file, as after `npm test`'s build step).
 */
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KUBECTL_PODS_YAML, ORDERS_CSV } from "../../src/retrieval/fixtures/record-shapes.js";

const ROOT = resolve(import.meta.dirname, "../..");
const BIN = join(ROOT, "dist/cli/main.js");

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stdoutBytes: Buffer;
  readonly stderr: string;
}

let home: string;
let work: string;

function run(args: string[], input?: string | Buffer): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, "--home", home, ...args], {
      cwd: work,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", fail);
    child.on("close", (code) => {
      const stdoutBytes = Buffer.concat(out);
      done({
        code,
        stdout: stdoutBytes.toString("utf8"),
        stdoutBytes,
        stderr: Buffer.concat(err).toString("utf8"),
      });
    });
    child.stdin.end(input);
  });
}

async function ok(args: string[], input?: string | Buffer): Promise<Run> {
  const result = await run(args, input);
  expect(result.stderr.includes("error "), result.stderr).toBe(false);
  expect(result.code).toBe(0);
  return result;
}

async function putFile(
  name: string,
  content: string | Buffer,
  ...flags: string[]
): Promise<string> {
  await writeFile(join(work, name), content);
  const { stdout } = await ok(["outputs", "put", name, ...flags]);
  return stdout.trim();
}

const sha = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");

/** 200 numbered lines with multi-byte characters and a few planted words. */
const LINES = Array.from({ length: 200 }, (_, i) => {
  const n = i + 1;
  if (n === 42) return "line 42 ERROR disk full on /var — café ☕";
  if (n === 150) return "line 150 error: retry later 😀";
  if (n === 151) return "line 151 Error again";
  return `line ${n} ok ${"ä".repeat(n % 7)}`;
});
const TEXT = `${LINES.join("\n")}\n`;

beforeAll(async () => {
  const built = existsSync(BIN) ? statSync(BIN).mtimeMs : 0;
  if (built < newestSource(join(ROOT, "src"))) {
    execFileSync(
      process.execPath,
      [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"],
      {
        cwd: ROOT,
        stdio: "inherit",
      },
    );
  }
  home = await mkdtemp(join(tmpdir(), "spillway-cli-home-"));
  work = await mkdtemp(join(tmpdir(), "spillway-cli-work-"));
});

afterAll(async () => {
  await rm(home, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});

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

describe("outputs slice", () => {
  let id: string;
  beforeAll(async () => {
    id = await putFile("slice.log", TEXT);
  });

  it("slices characters exactly, with a provenance header on stderr", async () => {
    const result = await ok(["outputs", "slice", id, "--start", "5", "--length", "12"]);
    expect(result.stdout).toBe(TEXT.slice(5, 17));
    expect(result.stderr).toMatch(
      new RegExp(
        `^# ${id} chars 5-17 bytes 5-\\d+ lines 1-2 of 200 sha256 ${sha(TEXT).slice(0, 12)}…$`,
        "m",
      ),
    );
  });

  it("slices lines by --lines A:B and by --line-start/--line-end alike", async () => {
    const expected = `${LINES.slice(41, 44).join("\n")}\n`;
    const a = await ok(["outputs", "slice", id, "--lines", "42:44"]);
    const b = await ok(["outputs", "slice", id, "--line-start", "42", "--line-end", "44"]);
    expect(a.stdout).toBe(expected);
    expect(b.stdout).toBe(expected);
    expect(a.stderr).toContain("lines 42-44 of 200");
  });

  it("centers on an anchor; a missing anchor is a message and exit 0", async () => {
    const found = await ok(["outputs", "slice", id, "--anchor", "café", "--window", "5"]);
    const at = TEXT.indexOf("café");
    expect(found.stdout).toBe(TEXT.slice(at - 5, at + 4 + 5));
    expect(found.stderr).toContain('anchor "café" match 0 (0-based) of 1');
    const missing = await ok(["outputs", "slice", id, "--anchor", "no such text"]);
    expect(missing.stdout).toBe("");
    expect(missing.stderr).toContain('anchor "no such text" not found');
    expect(missing.stderr).toContain("occurs 0 times");
    const beyond = await ok(["outputs", "slice", id, "--anchor", "rror", "--match-index", "5"]);
    expect(beyond.stderr).toContain("occurs 2 times; valid --match-index: 0 to 1");
  });
});

describe("outputs grep", () => {
  let id: string;
  beforeAll(async () => {
    id = await putFile("grep.log", TEXT);
  });

  it("finds a literal with LINE:COL and a footer", async () => {
    const result = await ok(["outputs", "grep", id, "ERROR"]);
    expect(result.stdout).toBe(`42:9: ${LINES[41]}\n`);
    expect(result.stderr).toContain("1 matching line");
    expect(result.stderr).toContain("no more matches");
  });

  it("supports --regex, -i and context with separators", async () => {
    const regex = await ok(["outputs", "grep", id, "^line 15[01] ", "--regex"]);
    expect(regex.stdout).toBe(`150:1: ${LINES[149]}\n151:1: ${LINES[150]}\n`);
    const ci = await ok(["outputs", "grep", id, "error", "-i"]);
    expect(
      ci.stdout
        .trimEnd()
        .split("\n")
        .map((l) => l.split(":")[0]),
    ).toEqual(["42", "150", "151"]);
    const context = await ok(["outputs", "grep", id, "rror", "-i", "-C", "1"]);
    expect(context.stdout).toBe(
      [
        `41- ${LINES[40]}`,
        `42:10: ${LINES[41]}`,
        `43- ${LINES[42]}`,
        "--",
        `149- ${LINES[148]}`,
        `150:11: ${LINES[149]}`,
        `151:11: ${LINES[150]}`,
        `152- ${LINES[151]}`,
        "",
      ].join("\n"),
    );
  });

  it("continues from the next cursor in the footer until no matches remain", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let round = 0; round < 10; round++) {
      const result = await ok([
        "outputs",
        "grep",
        id,
        " ok ",
        "--max",
        "70",
        ...(cursor ? ["--cursor", cursor] : []),
      ]);
      seen.push(...result.stdout.trimEnd().split("\n"));
      const next = /next cursor (\d+)/.exec(result.stderr);
      if (!next) {
        expect(result.stderr).toContain("no more matches");
        break;
      }
      expect(result.stderr).toContain("more matches exist");
      cursor = next[1];
    }
    expect(seen).toHaveLength(197);
    expect(new Set(seen).size).toBe(197);
    expect(seen.at(-1)).toBe(`200:9: ${LINES[199]}`);
  });

  it("--record shows each match inside its record, and the command that reads what it left out", async () => {
    const pods = await putFile("pods.yaml", KUBECTL_PODS_YAML);
    const yaml = await ok(["outputs", "grep", pods, "k8w4d", "--record"]);
    const lines = yaml.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("# record: yaml-item, lines 32-60");
    expect(lines[1]).toBe("32- - apiVersion: v1");
    expect(lines).toContain("40:30:     name: checkout-7d9c5b8f6-k8w4d");
    expect(lines).toContain("48-       image: registry.example.com/checkout:2.15.0-rc1");
    const csv = await putFile("orders.csv", ORDERS_CSV);
    const row = await ok(["outputs", "grep", csv, "ring twice", "--record"]);
    expect(row.stdout).toContain(
      '4: order_id=A-1003, placed_at=2026-03-14T08:01:12Z, customer=Alan Turing, warehouse="Leeds, UK"',
    );
    const big = JSON.stringify(
      { items: [{ id: "big", values: Array.from({ length: 200 }, (_, i) => i) }] },
      null,
      2,
    );
    const json = await putFile("big.json", big);
    const clipped = await ok(["outputs", "grep", json, '"id": "big"', "--record"]);
    const leftOut = new RegExp(
      `# left out: lines 63-207: spillway outputs slice ${json} .*--line-start (\\d+) --line-end (\\d+)`,
    ).exec(clipped.stdout);
    expect(leftOut?.slice(1)).toEqual(["63", "207"]);
    const rest = await ok(["outputs", "slice", json, "--line-start", "63", "--line-end", "207"]);
    expect(rest.stdout.trimEnd()).toBe(big.split("\n").slice(62, 207).join("\n"));
    const asJson = JSON.parse(
      (await ok(["outputs", "grep", pods, "k8w4d", "--record", "--json"])).stdout,
    );
    expect(asJson.records[0]).toMatchObject({ kind: "yaml-item", lineStart: 32, lineEnd: 60 });
  });
});

describe("outputs page and export", () => {
  it("pages until the end and reconstructs the file exactly", async () => {
    const content = `${TEXT}\r\nCRLF line\r\nno final newline 🎉`;
    const id = await putFile("paged.txt", content);
    const parts: Buffer[] = [];
    let cursor = "0";
    for (let pages = 0; pages < 100; pages++) {
      const page = await ok(["outputs", "page", id, "--cursor", cursor, "--chars", "400"]);
      parts.push(page.stdoutBytes);
      expect(page.stderr).toMatch(new RegExp(`^# ${id} chars ${cursor}-\\d+ `, "m"));
      const next = /# next cursor (\d+)/.exec(page.stderr);
      if (!next) {
        expect(page.stderr).toContain("# last page");
        break;
      }
      cursor = next[1]!;
    }
    expect(parts.length).toBeGreaterThan(5);
    expect(Buffer.concat(parts).equals(Buffer.from(content))).toBe(true);
  });

  it("exports text and invalid UTF-8 byte for byte; verify says ok", async () => {
    const text = Buffer.from(`${TEXT}tail ✓`);
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0xc3, 0x28, 0x00, 0x80, 0x0a]);
    for (const content of [text, bytes, Buffer.concat(Array(9000).fill(bytes))]) {
      const id = await putFile("export.bin", content);
      const exported = await ok(["outputs", "export", id]);
      expect(exported.stdoutBytes.equals(content)).toBe(true);
      const verified = await ok(["outputs", "verify", id]);
      expect(verified.stdout).toMatch(new RegExp(`^ok ${id}: .*${sha(content)}`));
    }
    const kind = JSON.parse(
      (await ok(["outputs", "show", await putFile("b.bin", bytes), "--json"])).stdout,
    );
    expect(kind.record.kind).toBe("binary");
  });

  it("fails export with STORE_CORRUPT and verify with mismatch when a blob is damaged", async () => {
    const content = Buffer.from("corrupt me\n".repeat(10_000)); // over the inline limit: a blob file
    const id = await putFile("corrupt.txt", content);
    const blob = join(home, "blobs", sha(content).slice(0, 2), sha(content));
    const damaged = Buffer.from(content);
    damaged[500] = 0x21;
    await chmod(blob, 0o600);
    await writeFile(blob, damaged);
    const exported = await run(["outputs", "export", id]);
    expect(exported.code).toBe(1);
    expect(exported.stderr).toMatch(/^error STORE_CORRUPT: /m);
    expect(exported.stderr).not.toMatch(/\n\s+at /);
    const verified = await run(["outputs", "verify", id]);
    expect(verified.code).toBe(1);
    expect(verified.stdout).toContain(`mismatch ${id}`);
    expect(verified.stdout).toContain(sha(damaged));
  });
});

describe("outputs json", () => {
  it("prints an outline, and query matches as path = value with a next offset", async () => {
    const doc = { items: Array.from({ length: 5 }, (_, i) => ({ id: `i${i}`, ok: i % 2 === 0 })) };
    const id = await putFile("doc.json", JSON.stringify(doc));
    const outline = await ok(["outputs", "json", id]);
    expect(outline.stdout).toMatch(/^\$: object \(1 key\)$/m);
    expect(outline.stdout).toMatch(/\.items: array\[5\] of object/);
    const first = await ok(["outputs", "json", id, "$.items[*].id", "--max", "2"]);
    expect(first.stdout).toBe(`$['items'][0]['id'] = "i0"\n$['items'][1]['id'] = "i1"\n`);
    expect(first.stderr).toContain("matches 1-2 of 5");
    expect(first.stderr).toContain("next offset 2");
    expect(first.stderr).toContain(
      `continue: spillway outputs json ${id} '$.items[*].id' --home ${home} --max 2 --offset 2`,
    );
    const rest = await ok(["outputs", "json", id, "$.items[*].id", "--offset", "2", "--max", "5"]);
    expect(rest.stdout.trimEnd().split("\n")).toHaveLength(3);
    expect(rest.stderr).not.toContain("next offset");
    const objects = await ok(["outputs", "json", id, "$.items[?(@.ok==false)]"]);
    expect(objects.stdout).toBe(
      `$['items'][1] = {"id":"i1","ok":false}\n$['items'][3] = {"id":"i3","ok":false}\n`,
    );
  });
});

describe("outputs demo", () => {
  it("stores a generated log, finds the planted incident and verifies paging end to end", async () => {
    const demo = await ok(["outputs", "demo", "--size-mb", "2"]);
    const planted = /line ([\d,]+) \(planted at line ([\d,]+)\)/.exec(demo.stdout);
    expect(planted?.[1]).toBe(planted?.[2]);
    expect(demo.stdout).toMatch(/size +2\.0 MB \([\d,]+ bytes\), [\d,]+ lines/);
    expect(demo.stdout).toContain('msg="connection pool exhausted (max=50)"');
    expect(demo.stdout).toContain("identical: paging reconstructs the stored output exactly");
    expect(demo.stdout).toMatch(/\.orders: array\[2000\] of object/);
    const grep = /spillway --home \S+ outputs grep (out_\w+) /.exec(demo.stdout);
    expect(grep).not.toBeNull();
    const again = await ok(["outputs", "grep", grep![1]!, "connection pool exhausted"]);
    expect(again.stdout).toMatch(
      new RegExp(`^${planted![1]!.replaceAll(",", "")}:\\d+: .*ERROR \\[payment-svc\\]`),
    );
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
    const child = spawn(process.execPath, [BIN, "--home", home, "outputs", "export", id]);
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
