import { chmod, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { wholeOutputPointer } from "../../src/cli/session-render.js";
import { KUBECTL_PODS_YAML, ORDERS_CSV } from "../../src/retrieval/fixtures/record-shapes.js";
import { LINES, outputsCli, sha, TEXT } from "../helpers/outputs-cli.js";

const { home: homeDir, run, ok, putFile } = outputsCli();

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

  it("the command sessions show names for a clipped result prints the output whole", async () => {
    const id = await putFile("pointed.txt", TEXT);
    const command = /spillway (.+)$/.exec(wholeOutputPointer(id))![1]!.split(" ");
    const printed = await ok(command);
    expect(printed.stdout).toBe(TEXT);
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
    const blob = join(homeDir(), "blobs", sha(content).slice(0, 2), sha(content));
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
      `continue: spillway outputs json ${id} '$.items[*].id' --home ${homeDir()} --max 2 --offset 2`,
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
