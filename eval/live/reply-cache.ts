/**
 * The live benchmark's replies, kept by request: a request the model has already answered, byte
 * for byte, gets that answer again instead of another hour of a 2-core machine.
 *
 * Why it is sound: every run plays greedy, and a task's session draws its ids from the task
 * (task-ids.ts), so two runs of a task send the model the same requests until a behaviour makes
 * them differ; the model's answer to a request is a function of the request. An ablation's
 * second arm then costs model time only where the behaviour changed what the model was shown,
 * and what it was shown from there on. A reply is reused only for a request equal in every
 * field the model reads (the model's ref and window, the system prompt, the messages, the
 * tools, the tool choice, the reply's length limit); anything else is a new request.
 *
 * The file is JSON lines, one `{ key, reply }` a computed reply, appended as it comes: runs of
 * the same seed side by side (two arms in parallel) share it, each reading what the other
 * appended when it misses.
 */
import { createHash } from "node:crypto";
import { appendFile, mkdir, open } from "node:fs/promises";
import { dirname } from "node:path";
import type { ModelReply, ModelRequest } from "../../src/providers/model-caller.js";
import type { ModelTarget } from "../../src/providers/models.js";

/** How a session's model calls were answered. */
export interface ReplyCounts {
  /** Replies the model computed in this run. */
  computed: number;
  /** Replies given again for a request answered before. */
  replayed: number;
  /** The model's milliseconds for the replies given again, as measured when it computed them. */
  replayedMs: number;
}

export interface ReplyCache {
  /**
   * The reply to `request`: the kept one when the same request was answered before (and
   * `replay` is on), else `compute()`'s, kept for next time.
   */
  reply(
    targets: readonly ModelTarget[],
    request: ModelRequest,
    compute: () => Promise<ModelReply>,
  ): Promise<ModelReply>;
  /** Counts since the cache was opened. */
  readonly counts: Readonly<ReplyCounts>;
}

/**
 * The key of a request: a SHA-256 over what the model reads of it (not its abort signal).
 *
 * @example
 * requestKey([target], { system: "…", messages: [], tools: [] }) // "3f1c…" (64 hex characters)
 */
export function requestKey(targets: readonly ModelTarget[], request: ModelRequest): string {
  const read = {
    models: targets.map((t) => [t.ref, t.model, t.contextWindow, t.maxOutputTokens]),
    system: request.system,
    messages: request.messages,
    tools: request.tools,
    toolChoice: request.toolChoice ?? "auto",
    maxOutputTokens: request.maxOutputTokens ?? null,
  };
  return createHash("sha256").update(JSON.stringify(read)).digest("hex");
}

/** A kept line's key and reply; undefined for a blank line or one a crash cut (it is computed again). */
function keptReply(line: string): { key: string; reply: ModelReply } | undefined {
  if (line.trim() === "") return undefined;
  try {
    const kept = JSON.parse(line) as { key?: unknown; reply?: unknown };
    if (typeof kept.key === "string" && kept.reply && typeof kept.reply === "object")
      return kept as { key: string; reply: ModelReply };
  } catch {
    // A line cut short by a killed run: not a reply.
  }
  return undefined;
}

/** Ends a file a killed run left without its last newline, so the next line starts whole. */
async function endLastLine(file: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    if (last[0] === 10) return;
  } finally {
    await handle.close();
  }
  await appendFile(file, "\n");
}

/** Reads the lines appended to `file` since byte `from` into `replies`; returns the new end. */
async function readFrom(file: string, from: number, replies: Map<string, ModelReply>) {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return from;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (size <= from) return from;
    const buffer = Buffer.alloc(size - from);
    await handle.read(buffer, 0, buffer.length, from);
    // Only whole lines: a line another run is still appending is read on the next miss.
    const end = buffer.lastIndexOf(10) + 1;
    for (const line of buffer.subarray(0, end).toString("utf8").split("\n")) {
      const kept = keptReply(line);
      if (kept) replies.set(kept.key, kept.reply);
    }
    return from + end;
  } finally {
    await handle.close();
  }
}

/**
 * Opens (or starts) the replies kept in `file`. With `replay: false` every request is computed
 * (and kept), as a run that must not reuse anything needs.
 *
 * @example
 * const cache = await openReplyCache(".cache/eval-live/634684/replies.jsonl");
 * const callModel = (targets, request) => cache.reply(targets, request, () => callModel(targets, request));
 */
export async function openReplyCache(
  file: string,
  options: { replay?: boolean } = {},
): Promise<ReplyCache> {
  const replay = options.replay ?? true;
  const replies = new Map<string, ModelReply>();
  await mkdir(dirname(file), { recursive: true });
  await endLastLine(file);
  let readTo = await readFrom(file, 0, replies);
  const counts: ReplyCounts = { computed: 0, replayed: 0, replayedMs: 0 };
  return {
    counts,
    async reply(targets, request, compute) {
      const key = requestKey(targets, request);
      if (replay) {
        if (!replies.has(key)) readTo = await readFrom(file, readTo, replies);
        const kept = replies.get(key);
        if (kept) {
          counts.replayed += 1;
          counts.replayedMs += kept.latencyMs;
          return kept;
        }
      }
      const computed = await compute();
      counts.computed += 1;
      replies.set(key, computed);
      await appendFile(file, `${JSON.stringify({ key, reply: computed })}\n`);
      return computed;
    },
  };
}
