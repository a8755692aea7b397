import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/helpers/temp-store.js";
import { zipFile } from "../../../test/helpers/zip-file.js";
import { readZipEntry, zipEntries } from "./zip-entry.js";

async function read(path: string, name: string): Promise<Buffer> {
  const blocks: Buffer[] = [];
  for await (const block of readZipEntry(path, name)) blocks.push(block);
  return Buffer.concat(blocks);
}

async function written(bytes: Buffer): Promise<string> {
  const path = join(await tempDir("spillway-zip-"), "a.whl");
  await writeFile(path, bytes);
  return path;
}

const python = spawnSync("python3", ["--version"]).status === 0;
if (!python) console.warn("zip-entry: the Python zipfile cross-check is skipped: no python3");

describe("readZipEntry", () => {
  it("reads deflated and stored entries byte for byte, and lists the directory", async () => {
    const big = randomBytes(700_000);
    const text = Buffer.from("x = 1\n".repeat(1000));
    const path = await written(
      zipFile([
        { name: "pkg/__init__.py", data: text },
        { name: "pkg/data/part01.bin", data: big },
        { name: "pkg/stored.bin", data: big.subarray(0, 1000), method: 0 },
        { name: "pkg/empty", data: Buffer.alloc(0), method: 0 },
      ]),
    );
    expect((await zipEntries(path)).map((e) => [e.name, e.method, e.size])).toEqual([
      ["pkg/__init__.py", 8, 6000],
      ["pkg/data/part01.bin", 8, 700_000],
      ["pkg/stored.bin", 0, 1000],
      ["pkg/empty", 0, 0],
    ]);
    expect((await read(path, "pkg/data/part01.bin")).equals(big)).toBe(true);
    expect((await read(path, "pkg/__init__.py")).equals(text)).toBe(true);
    expect((await read(path, "pkg/stored.bin")).equals(big.subarray(0, 1000))).toBe(true);
    expect((await read(path, "pkg/empty")).length).toBe(0);
  });

  it.skipIf(!python)("reads a wheel written by Python's zipfile", async () => {
    const dir = await tempDir("spillway-zip-");
    const data = randomBytes(200_000);
    await writeFile(join(dir, "part01.bin"), data);
    const made = spawnSync(
      "python3",
      [
        "-c",
        "import zipfile,sys\nwith zipfile.ZipFile(sys.argv[1],'w',zipfile.ZIP_DEFLATED) as z:\n z.write(sys.argv[2],'p/data/part01.bin')\n z.writestr('p-1.0.dist-info/WHEEL','Wheel-Version: 1.0\\n')",
        join(dir, "p.whl"),
        join(dir, "part01.bin"),
      ],
      { encoding: "utf8" },
    );
    expect(made.status, made.stderr).toBe(0);
    expect((await read(join(dir, "p.whl"), "p/data/part01.bin")).equals(data)).toBe(true);
  });

  it("names the entries there are when the one asked for is missing", async () => {
    const path = await written(zipFile([{ name: "pkg/a.bin", data: Buffer.from("a") }]));
    await expect(read(path, "pkg/data/part01.bin")).rejects.toThrow(
      `${path} has no pkg/data/part01.bin (it holds pkg/a.bin)`,
    );
  });

  it("refuses what is not a zip, another compression method, and data longer than declared", async () => {
    await expect(read(await written(Buffer.from("not a zip at all")), "x")).rejects.toThrow(
      "is not a zip archive (no end-of-directory record)",
    );
    const bzip = await written(zipFile([{ name: "x", data: Buffer.from("abc"), method: 12 }]));
    await expect(read(bzip, "x")).rejects.toThrow("uses compression method 12");
    // A directory that declares 10 bytes for an entry that inflates to 5,000.
    const lying = zipFile([{ name: "x", data: Buffer.alloc(5000, 1) }]);
    const central = lying.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    lying.writeUInt32LE(10, central + 24);
    await expect(read(await written(lying), "x")).rejects.toThrow(
      "holds more than the 10 bytes it declares",
    );
  });

  it("refuses a truncated archive", async () => {
    const whole = zipFile([{ name: "x", data: randomBytes(10_000) }]);
    // Keep the end record but cut the middle: the directory now points past the end.
    const cut = Buffer.concat([whole.subarray(0, 100), whole.subarray(whole.length - 22)]);
    await expect(read(await written(cut), "x")).rejects.toThrow("is truncated");
  });
});
