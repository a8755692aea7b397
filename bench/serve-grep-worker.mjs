// The library side of bench:serve's grep comparison, in its own process like the server (so
// neither side gets the scheduler's favour for having slept while the other worked): reads
// one JSON request a line on stdin ({home, id, sessionId, pattern}), runs the grep with the
// built library, answers {ms, matches} on stdout.
import { createInterface } from "node:readline";
import { readOutput } from "../dist/retrieval/index.js";
import { openSqliteStores } from "../dist/store/index.js";

let stores;
for await (const line of createInterface({ input: process.stdin })) {
  const { home, id, sessionId, pattern } = JSON.parse(line);
  stores ??= await openSqliteStores({ home });
  const start = performance.now();
  const result = await readOutput(stores.outputs, id, { sessionId }, { mode: "grep", pattern });
  const ms = performance.now() - start;
  process.stdout.write(`${JSON.stringify({ ms, matches: result.matches.length })}\n`);
}
await stores?.close();
