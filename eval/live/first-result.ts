/**
 * Where a session's first tool result put the answer: what the model had in front of it before it
 * read anything on purpose. spillway's first result of a large file is its handle message, whose
 * task search shows a best result first; a peer's is its preview or cut. Splitting the right
 * answers by this place says whether recall is lost to what was shown (the answer absent, or
 * behind another record) or to reading (the answer in the best result, alone, and still missed).
 */
import { bestResult, withoutLineNumbers } from "../handle-best.js";
import { holdsValue, valueCount } from "../tasks/score.js";
import type { LiveTask } from "../tasks/types.js";

/**
 * `best-alone`: in the task search's best result with none of the task's decoys; `best`: there
 * beside a decoy; `elsewhere`: in the first result but not its best result (or it shows no
 * search); `absent`: not in it.
 */
export const FIRST_RESULT_PLACES = ["best-alone", "best", "elsewhere", "absent"] as const;
export type FirstResultPlace = (typeof FIRST_RESULT_PLACES)[number];

/**
 * The place of the answer in the first tool result, or null where the file holds the value more
 * than once (seeing it then says nothing of where the answer is), as for `answerShown`.
 *
 * @example
 * firstResultPlace(task, handleMessage); // "best-alone"
 */
export function firstResultPlace(task: LiveTask, first: string): FirstResultPlace | null {
  if (valueCount(task.text, task.expected) !== 1) return null;
  const answers = [task.expected, ...task.accepted];
  const holds = (text: string) => answers.some((value) => holdsValue(text, value));
  // The numbers spillway puts before lines are places in the output, not its content.
  if (!holds(withoutLineNumbers(first.split("\n")).join("\n"))) return "absent";
  const best = withoutLineNumbers(bestResult(first)).join("\n");
  if (best === "" || !holds(best)) return "elsewhere";
  return task.decoys.some((decoy) => holdsValue(best, decoy)) ? "best" : "best-alone";
}

const PLACE_WORDS: Record<FirstResultPlace, string> = {
  "best-alone": "in the search's best result, no decoy beside it",
  best: "in the search's best result, beside a decoy",
  elsewhere: "elsewhere in the first result",
  absent: "not in the first result",
};

/**
 * A table of right answers by where each session's first tool result put the answer, a column a
 * policy (episodes that record the place, and whose file holds the value once); no lines when
 * none does.
 *
 * @example
 * firstResultLines(episodes);
 * // ["| where the first result put the answer | spillway |", "| --- | --- |", "| in the search's best result, no decoy beside it | 17 of 20 |", …]
 */
export function firstResultLines(
  episodes: readonly { policy: string; correct: boolean; firstResult?: FirstResultPlace | null }[],
): string[] {
  const placed = episodes.filter((e) => typeof e.firstResult === "string");
  if (placed.length === 0) return [];
  const policies = [...new Set(placed.map((e) => e.policy))];
  const cell = (policy: string, place: FirstResultPlace) => {
    const here = placed.filter((e) => e.policy === policy && e.firstResult === place);
    return here.length === 0 ? "–" : `${here.filter((e) => e.correct).length} of ${here.length}`;
  };
  return [
    `| where the first result put the answer | ${policies.join(" | ")} |`,
    `| --- | ${policies.map(() => "---").join(" | ")} |`,
    ...FIRST_RESULT_PLACES.map(
      (place) => `| ${PLACE_WORDS[place]} | ${policies.map((p) => cell(p, place)).join(" | ")} |`,
    ),
  ];
}
