/** A scored live episode for tests of the live benchmark's tools, with the fields a test sets. */
import type { LiveEpisode } from "../../eval/live/episode.js";

/**
 * An episode of seed 5, a CSV lookup played by spillway's default run; `extra` overrides.
 *
 * @example
 * liveEpisode("a", false, { kind: "ordinal", answerShown: true });
 */
export function liveEpisode(
  taskId: string,
  correct: boolean,
  extra: Partial<LiveEpisode> = {},
): LiveEpisode {
  return {
    taskId,
    seed: 5,
    shape: "csv",
    kind: "lookup",
    phrasing: 0,
    question: "q",
    expected: "x",
    policy: "spillway",
    variant: "default",
    model: "m",
    report: correct ? "x" : "y",
    failure: null,
    correct,
    namesExpected: correct,
    decoysNamed: [],
    inventedValues: [],
    invented: false,
    readBeforeAnswer: true,
    requests: 3,
    inputTokens: 1000,
    outputTokens: 20,
    seconds: 60,
    transcript: [],
    ...extra,
  } as LiveEpisode;
}

/** Episodes as a kept run's file holds them, one JSON object a line. */
export const episodeLines = (episodes: readonly LiveEpisode[]) =>
  episodes.map((e) => `${JSON.stringify(e)}\n`).join("");
