/**
 * One live task played by one policy, scored, and the file that keeps a run's episodes as they
 * finish: a run that stops (a crash, a session's end) continues where it stopped, and a run can be
 * split across sessions with the same seed.
 */
import { appendFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { scoreLiveReport } from "../tasks/score.js";
import type { LiveTask, QuestionKind, ShapeName } from "../tasks/types.js";
import { type FirstResultPlace, firstResultPlace } from "./first-result.js";

/** One model call of a session, as the model saw it: what it called and what came back. */
export interface LiveTurn {
  /** The calls the model made, `name({args})`, or its text reply. */
  readonly did: string;
  /** The tool results (or notes) it was shown next, clipped for the report. */
  readonly shown: string;
}

export interface LiveEpisode {
  readonly taskId: string;
  readonly seed: number;
  readonly shape: ShapeName;
  readonly kind: QuestionKind;
  readonly phrasing: number;
  readonly question: string;
  readonly expected: string;
  /** `spillway`, `claude-code`, `codex`, `paging`. */
  readonly policy: string;
  /** `default`, or the guidance switched off (`ablate:taskFocus,…`). */
  readonly variant: string;
  readonly model: string;
  readonly report: string | null;
  /** Why the session ended without a right report (context overflow, no report, …). */
  readonly failure: string | null;
  readonly correct: boolean;
  readonly namesExpected: boolean;
  readonly decoysNamed: readonly string[];
  readonly inventedValues: readonly string[];
  readonly invented: boolean;
  /**
   * A tool result of the session held the expected value; null where the file repeats it, absent
   * in older episodes.
   */
  readonly answerShown?: boolean | null;
  /**
   * Where the session's first tool result put the expected value (first-result.ts); null where
   * the file repeats it, absent in older episodes and in sessions that got no tool result.
   */
  readonly firstResult?: FirstResultPlace | null;
  /** The model read content beyond the first tool result before it reported. */
  readonly readBeforeAnswer: boolean;
  /** Model calls (requests) of the session. */
  readonly requests: number;
  /** Input tokens over every request, as the model counted them (definitions, notices, results). */
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly seconds: number;
  /** Seconds the model worked for the agent (its requests), where the harness measures them. */
  readonly modelSeconds?: number;
  /** Requests given the reply kept from an earlier run of the same request (reply-cache.ts). */
  readonly replayedRequests?: number;
  /** Compactions of the session (spillway), and the seconds their summaries took. */
  readonly compactions?: number;
  readonly compactionSeconds?: number;
  /** The session turn by turn (for the report's worst sessions). */
  readonly transcript: readonly LiveTurn[];
}

/**
 * A result clipped for a transcript: its head and its tail (where markers and the last lines
 * are), the middle replaced by how much was left out.
 *
 * @example
 * clipForTranscript("x".repeat(5000), 1200); // 800 x, "… [3800 characters] …", 400 x
 */
export function clipForTranscript(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = Math.round((max * 2) / 3);
  const tail = max - head;
  return `${text.slice(0, head)}… [${text.length - max} characters] …${text.slice(text.length - tail)}`;
}

/** What a policy's run gives back, before scoring. */
export interface PlayedSession {
  readonly report: string | null;
  readonly failure: string | null;
  readonly readBeforeAnswer: boolean;
  readonly requests: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Where the session's time went, where the policy's harness measures it. */
  readonly time?: {
    readonly modelSeconds: number;
    readonly compactions: number;
    readonly compactionSeconds: number;
  };
  /** Every tool result the model was shown (for invented values). */
  readonly shown: string;
  /** The first of them, whole (where it put the answer: first-result.ts). */
  readonly firstResult?: string;
  readonly transcript: readonly LiveTurn[];
}

/** Scores a played session into an episode. */
export function episodeOf(
  task: LiveTask,
  played: PlayedSession,
  meta: { policy: string; variant: string; model: string; seconds: number },
): LiveEpisode {
  const score = scoreLiveReport(task, played.report, played.shown);
  return {
    taskId: task.id,
    seed: task.seed,
    shape: task.shape,
    kind: task.kind,
    phrasing: task.phrasing,
    question: task.question,
    expected: task.expected,
    ...meta,
    report: played.report,
    failure: score.correct ? null : (played.failure ?? (played.report ? null : "no report")),
    correct: score.correct,
    namesExpected: score.namesExpected,
    decoysNamed: score.decoysNamed,
    inventedValues: score.inventedValues,
    invented: score.inventedValues.length > 0,
    answerShown: score.answerShown,
    ...(played.firstResult !== undefined
      ? { firstResult: firstResultPlace(task, played.firstResult) }
      : {}),
    readBeforeAnswer: played.readBeforeAnswer,
    requests: played.requests,
    inputTokens: played.inputTokens,
    outputTokens: played.outputTokens,
    ...(played.time ?? {}),
    transcript: played.transcript,
  };
}

/** The key an episode is kept under: one per task, policy and variant. */
export const episodeKey = (e: Pick<LiveEpisode, "taskId" | "policy" | "variant">) =>
  `${e.taskId}|${e.policy}|${e.variant}`;

/**
 * The episodes a run has kept so far (one JSON object a line). A line cut by a crash is dropped
 * from the file, so the next episode starts on a line of its own; that episode is played again.
 *
 * @example
 * const done = await loadEpisodes("eval/report-live/episodes.jsonl");
 */
export async function loadEpisodes(path: string): Promise<LiveEpisode[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const episodes: LiveEpisode[] = [];
  let cut = false;
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      episodes.push(JSON.parse(line) as LiveEpisode);
    } catch {
      cut = true;
    }
  }
  if (cut || (text !== "" && !text.endsWith("\n")))
    await writeFile(path, episodes.map((e) => `${JSON.stringify(e)}\n`).join(""));
  return episodes;
}

/** Keeps one finished episode (appended: earlier ones are never rewritten). */
export async function keepEpisode(path: string, episode: LiveEpisode): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await appendFile(path, `${JSON.stringify(episode)}\n`);
}
