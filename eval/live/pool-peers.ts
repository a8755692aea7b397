/**
 * The pooled policy against every other policy that played the same tasks, paired by task: a
 * task right under one and wrong under the other says more than two recalls of different task
 * sets (docs/evaluation.md, "Where recall is lost").
 */
import { byTask, formatP, signTest } from "./compare.js";
import type { LiveEpisode } from "./episode.js";

/** One peer, paired with the pooled policy over the default-run tasks both played. */
export interface PeerPairing {
  readonly peer: string;
  /** The seeds where both played at least one task, ascending. */
  readonly seeds: readonly number[];
  readonly tasks: number;
  /** Right with the pooled policy only, with the peer only, with both. */
  readonly onlyPolicy: number;
  readonly onlyPeer: number;
  readonly both: number;
  /** Exact two-sided sign test of `onlyPolicy` against `onlyPeer`. */
  readonly p: number;
}

/**
 * `policy` paired by task with each other policy among the default runs of `episodes`, the
 * peers in name order.
 *
 * @example
 * peerPairings(await loadRunEpisodes("eval/report-live"), "spillway");
 * // [{ peer: "claude-code", tasks: 330, onlyPolicy: 190, onlyPeer: 0, … }, { peer: "codex", … }]
 */
export function peerPairings(episodes: readonly LiveEpisode[], policy: string): PeerPairing[] {
  const played = episodes.filter((e) => e.variant === "default");
  const ours = byTask(played, policy);
  const peers = [...new Set(played.map((e) => e.policy))].filter((p) => p !== policy).sort();
  return peers.map((peer) => {
    const pairs = played
      .filter((e) => e.policy === peer && ours.has(e.taskId))
      .map((theirs) => ({ ours: ours.get(theirs.taskId)!, theirs }));
    const onlyPolicy = pairs.filter((x) => x.ours.correct && !x.theirs.correct).length;
    const onlyPeer = pairs.filter((x) => !x.ours.correct && x.theirs.correct).length;
    return {
      peer,
      seeds: [...new Set(pairs.map((x) => x.ours.seed))].sort((a, b) => a - b),
      tasks: pairs.length,
      onlyPolicy,
      onlyPeer,
      both: pairs.filter((x) => x.ours.correct && x.theirs.correct).length,
      p: signTest(onlyPolicy, onlyPeer),
    };
  });
}

/** The pairings as a section of the pool's report; none when no peer played its tasks. */
export function renderPeerPairings(policy: string, pairings: readonly PeerPairing[]): string[] {
  const rows = pairings.filter((x) => x.tasks > 0);
  if (rows.length === 0) return [];
  return [
    "## Against the peers, paired by task",
    "",
    `| peer | seeds | tasks both played | right only with ${policy} | right only with the peer | right with both | sign test |`,
    "| --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ...rows.map(
      (x) =>
        `| ${x.peer} | ${x.seeds.length} | ${x.tasks} | ${x.onlyPolicy} | ${x.onlyPeer} | ${x.both} | ${formatP(x.p)} |`,
    ),
  ];
}
