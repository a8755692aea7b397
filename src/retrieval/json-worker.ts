/**
 * The worker thread of json mode (started by json-runner.ts, one per task): decodes the
 * document's bytes, runs the task and posts the result. Its heap is limited and it is
 * terminated at the deadline, so a costly query fails alone instead of taking the process
 * with it.
 */
import { parentPort } from "node:worker_threads";
import { evaluateJson, type JsonTask } from "./json-evaluate.js";

interface Request {
  readonly bytes: Uint8Array;
  readonly kind: "json" | "ndjson";
  readonly task: JsonTask;
}

parentPort?.once("message", (request: Request) => {
  let text: string;
  try {
    text = Buffer.from(
      request.bytes.buffer,
      request.bytes.byteOffset,
      request.bytes.byteLength,
    ).toString("utf8");
  } catch (error) {
    parentPort?.postMessage({ type: "too-costly", reason: (error as Error).message });
    return;
  }
  parentPort?.postMessage(evaluateJson(text, request.kind, request.task));
});
