#!/usr/bin/env node
/**
 * Writes examples/incident-triage/data/app.log: a deterministic 30 MB multi-service log with
 * one incident planted in the middle (the agent's job is to find it). Skips the work when the
 * file is already there. Needs the built package (npm install builds it).
 */
import { createWriteStream, existsSync, mkdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateLog } from "../../dist/cli/demo-data.js";

const SIZE = 30 * 1024 * 1024;
const here = dirname(fileURLToPath(import.meta.url));
const path = join(here, "data", "app.log");

if (existsSync(path) && statSync(path).size >= SIZE) {
  console.error(`incident-triage: ${path} is ready (${(statSync(path).size / 1e6).toFixed(1)} MB)`);
} else {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const planted = { line: 0, text: "", requestId: "req_7f3c9a1e2b40" };
  const out = createWriteStream(path);
  for await (const block of generateLog(SIZE, planted)) {
    if (!out.write(block)) await new Promise((resolve) => out.once("drain", resolve));
  }
  await new Promise((resolve, reject) => out.end((error) => (error ? reject(error) : resolve())));
  console.error(
    `incident-triage: wrote ${path} (${(SIZE / 1e6).toFixed(1)} MB; the incident is at line ${planted.line})`,
  );
}
