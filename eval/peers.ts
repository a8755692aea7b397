/**
 * The peer policies played by their blind scripted agents in process: each task gets a fresh
 * environment (the policy's view and tools over the output) and the agent plays it through the
 * request-counting loop (eval/drive.ts); the episode is scored from the report.
 */
import type { BlindAgent } from "./agents/conversation.js";
import { pagingAgent, readGrepAgent, shellAgent, viewAgent } from "./agents/peer-agents.js";
import { pagingEnv, viewEnv } from "./baselines.js";
import { drive, type PolicyEnv } from "./drive.js";
import { type Episode, type PolicyName, REQUEST_TOKEN_LIMIT } from "./episode.js";
import { drivenEpisode, type Prepared, promptOf, type Range } from "./prepared.js";
import { shellEnv } from "./spill-shell.js";
import { spillEnv } from "./spill-to-file.js";

export type PeerPolicy = Exclude<PolicyName, "spillway" | "spillway-extract">;

/** A peer policy's environment over one output, and the fraction of it shown (when known). */
export async function peerEnv(
  policy: PeerPolicy,
  p: Prepared,
  dir: string,
): Promise<PolicyEnv & { ranges?(): Range[] }> {
  if (policy === "paging-4000") return pagingEnv(p);
  if (policy === "spill-to-file") return spillEnv(p, dir);
  if (policy === "spill-to-file-shell") return shellEnv(p, dir);
  return viewEnv(policy, p);
}

/** The blind agent that plays a peer policy. */
export function peerAgent(policy: PeerPolicy): BlindAgent {
  if (policy === "paging-4000") return pagingAgent;
  if (policy === "spill-to-file") return readGrepAgent;
  if (policy === "spill-to-file-shell") return shellAgent;
  return viewAgent;
}

/**
 * Plays every task of a workload under a peer policy.
 *
 * @example
 * const episodes = await runPeerPolicy("codex-head-tail", prepared, spillDir);
 */
export async function runPeerPolicy(
  policy: PeerPolicy,
  p: Prepared,
  dir: string,
): Promise<Episode[]> {
  const episodes: Episode[] = [];
  for (const task of p.workload.tasks) {
    const env = await peerEnv(policy, p, dir);
    const run = await drive(peerAgent(policy), env, {
      prompt: promptOf(task, p.docId),
      count: p.count,
      contextLimit: REQUEST_TOKEN_LIMIT,
      // Continuation paging: continuation calls do not count toward the turn cap; paging ends when
      // the window is full.
      maxTurns: policy === "paging-4000" ? 100_000 : 40,
    });
    episodes.push(drivenEpisode(policy, task, p, run, env.ranges ? env.ranges() : null));
  }
  return episodes;
}
