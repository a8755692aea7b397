/** The extraction benchmark's scripted model server, run in a child process (extract-model-server.ts). */
import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import type { ModelTarget } from "../src/providers/models.js";
import type { ChildMessage, ParentMessage, ServerStats } from "./extract-model-server.js";
import { PROJECT_ROOT } from "./fixtures.js";

export interface ModelServer {
  readonly baseURL: string;
  stats(): Promise<ServerStats>;
  close(): Promise<void>;
}

export async function startModelServer(latencyMs: number): Promise<ModelServer> {
  const script = join(PROJECT_ROOT, "bench", "extract-model-server.ts");
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", script, String(latencyMs)],
    { cwd: PROJECT_ROOT, stdio: ["ignore", "ignore", "inherit", "ipc"] },
  );
  const pending = new Map<number, (stats: ServerStats) => void>();
  let nextId = 0;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const baseURL = await new Promise<string>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the model server child exited with ${code}`)));
    child.on("message", (message: ChildMessage) => {
      if (message.type === "ready") resolve(message.baseURL);
      else {
        const { requests, failures, spans, cpuMs } = message;
        pending.get(message.id)?.({ requests, failures, spans, cpuMs });
      }
    });
  });
  const send = (message: ParentMessage) => child.send(message);
  return {
    baseURL,
    stats: () =>
      new Promise((resolve) => {
        const id = nextId++;
        pending.set(id, (stats) => {
          pending.delete(id);
          resolve(stats);
        });
        send({ type: "stats", id });
      }),
    close: async () => {
      if (child.connected) send({ type: "close" });
      const timer = setTimeout(() => child.kill(), 2000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export function targetOf(baseURL: string, contextWindow: number): ModelTarget {
  return {
    ref: "openai-compatible/scripted/scripted-policy",
    provider: "openai-compatible",
    name: "scripted",
    model: "scripted-policy",
    baseURL,
    contextWindow,
    maxOutputTokens: 500,
    tokenizer: "o200k_base",
  };
}
