import { appendFile, open } from "node:fs/promises";
import { join } from "node:path";
import { FILE_MODE, makePrivateDir } from "../store/blob-files.js";
import type { AgentEvent } from "./events.js";

/** Where a session's trace file is. */
export function tracePathOf(home: string, sessionId: string): string {
  return join(home, "traces", `${sessionId}.jsonl`);
}

/**
 * The structured trace of a session: one JSON object a line in `<home>/traces/<session>.jsonl`
 * (session → turns → model calls / tool calls; a sub-agent's events go to its own file and the
 * parent's trace names it in a `child` event). Payloads are sizes and ids, never whole outputs.
 */
export class TraceWriter {
  private chain: Promise<void> = Promise.resolve();

  private constructor(readonly path: string) {}

  static async open(home: string, sessionId: string): Promise<TraceWriter> {
    await makePrivateDir(join(home, "traces"));
    const path = tracePathOf(home, sessionId);
    await (await open(path, "a", FILE_MODE)).close();
    return new TraceWriter(path);
  }

  /** Appends one event (writes are serialized; call `flush` before reading the file). */
  write(
    event:
      | AgentEvent
      | { type: "child"; sessionId: string; childSessionId: string; toolCallId: string },
  ): void {
    const line = `${JSON.stringify({ ts: new Date().toISOString(), ...event })}\n`;
    this.chain = this.chain.then(() => appendFile(this.path, line));
  }

  async flush(): Promise<void> {
    await this.chain;
  }
}
