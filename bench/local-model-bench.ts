/**
 * `npm run bench:local [-- <name-or-path>] [--json]`: prompt evaluation and generation speed of a
 * local GGUF model through node-llama-cpp on this machine, with 1 thread and with every math
 * core, plus what prefix reuse saves on a second agent-like turn. The machine's load is printed
 * beside the figures: on a shared machine, threads that wait on each other collapse first.
 */
import { loadavg } from "node:os";
import { DEFAULT_LOCAL_MODEL } from "../src/providers/local/catalog.js";
import { readGgufInfo } from "../src/providers/local/gguf-info.js";
import { resolveModelFile } from "../src/providers/local/model-files.js";
import { importNodeLlama } from "../src/providers/local/node-llama.js";

const args = process.argv.slice(2);
const json = args.includes("--json");
const name = args.find((a) => !a.startsWith("--")) ?? DEFAULT_LOCAL_MODEL;
const path = resolveModelFile(name);
const info = await readGgufInfo(path);
const { getLlama, LlamaLogLevel } = await importNodeLlama();
const llama = await getLlama({ gpu: false, build: "never", logLevel: LlamaLogLevel.error });
const model = await llama.loadModel({ modelPath: path });
const line =
  '2026-03-14T08:00:00.000Z INFO [cart-svc] request_id=req_1 msg="request ok" latency_ms=12\n';
const prompt = model.tokenize(line.repeat(24));
const results: Record<string, number | string>[] = [];

for (const threads of [...new Set([1, llama.cpuMathCores])]) {
  const context = await model.createContext({ contextSize: 2048, threads });
  const sequence = context.getSequence();
  const load = loadavg()[0]!;
  let start = performance.now();
  let first = 0;
  let generated = 0;
  for await (const _token of sequence.evaluate(prompt)) {
    if (generated === 0) {
      first = performance.now() - start;
      start = performance.now();
    }
    if (++generated > 32) break;
  }
  const genMs = performance.now() - start;
  // A second turn: same prefix plus a few new tokens, as an agent's next call.
  const more = model.tokenize("The next line follows.\n");
  const reuseStart = performance.now();
  for await (const _token of sequence.evaluate(more)) break;
  const reuseMs = performance.now() - reuseStart;
  results.push({
    threads,
    loadAverage: Number(load.toFixed(2)),
    promptTokens: prompt.length,
    promptTokPerSec: Number((prompt.length / (first / 1000)).toFixed(1)),
    generatedTokens: generated - 1,
    genTokPerSec: Number(((generated - 1) / (genMs / 1000)).toFixed(1)),
    nextTurnMsWithReuse: Math.round(reuseMs),
    nextTurnMsWithoutReuseEstimate: Math.round(
      (prompt.length + more.length) / (prompt.length / first),
    ),
  });
  await context.dispose();
}
await model.dispose();
const summary = {
  model: info.name ?? name,
  architecture: info.architecture,
  quantization: info.quantization,
  parameters: info.parameters,
  fileBytes: (await import("node:fs")).statSync(path).size,
  cpuMathCores: llama.cpuMathCores,
  results,
};
for (const r of results) {
  console.log(
    `${summary.model} ${summary.quantization} · ${r.threads} thread(s) · load ${r.loadAverage}: prompt ${r.promptTokPerSec} tok/s (${r.promptTokens} tokens), generation ${r.genTokPerSec} tok/s; next turn ${r.nextTurnMsWithReuse} ms with prefix reuse vs ~${r.nextTurnMsWithoutReuseEstimate} ms re-evaluating the prompt`,
  );
}
if (json) console.log(JSON.stringify(summary));
