/**
 * `npm run eval:handles`: a deterministic proxy of the live benchmark, no model. For each task
 * of a seed it stores the task's file as a read's result and builds the handle message the model
 * would be shown first, with the task known; it counts the tasks whose expected value (or an
 * accepted spelling) that message already holds. A model can still fail to report a value it was
 * shown, and can find one it was not, so this bounds nothing: it says where the guidance points,
 * in seconds rather than hours, and an ablation's difference shows task by task. It also plays
 * the search a model makes with its question as the query (handle-search.ts), and counts the
 * tasks whose value is in its best result and in its answer, and the same for the search the
 * handle message offers as its example, as a model copying it makes it. A best result that holds the value
 * and none of the task's decoys (the values beside it a reader could take instead) is counted
 * apart: what a reader meets first is then the answer alone; so are the other values of the
 * answer's form beside it there (handle-best.ts), what a reader could take for it, and those
 * anywhere in the message.
 *
 *   npm run eval:handles -- --tasks 90                       # a fresh seed, printed
 *   npm run eval:handles -- --seed 223151 --ablate taskRecord --json
 *   npm run eval:handles -- --seed 223151 --ablate taskFocus
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteOutputStore } from "../src/store/sqlite-output-store.js";
import { defaultHandleMessage, type HandleOptions } from "../src/surfaces/handle-message.js";
import { type CliArgs, cliArgs } from "./cli-args.js";
import { bestResult, lookAlikes, withoutLineNumbers } from "./handle-best.js";
import { exampleQuery, searchByQuestion } from "./handle-search.js";
import { drawTasks, freshSeed } from "./tasks/draw.js";
import { holdsValue } from "./tasks/score.js";
import type { LiveTask } from "./tasks/types.js";

/** The guidance switches that change the handle message itself. */
const HANDLE_SWITCHES = [
  "taskSearch",
  "taskRecord",
  "taskFocus",
  "thresholdLines",
  "formLines",
] as const;
type HandleSwitch = (typeof HANDLE_SWITCHES)[number];

const USAGE =
  "usage: npm run eval:handles -- [--seed N] [--tasks N] [--ablate taskSearch,taskRecord,taskFocus,thresholdLines,formLines] [--json]";

const cli = cliArgs(USAGE);
/** Annotated, so that the compiler knows it does not return. */
const fail: CliArgs["fail"] = cli.fail;
const { wholeNumber } = cli;

function parse(argv: readonly string[]) {
  let seed: number | undefined;
  let tasks = 90;
  let ablate: HandleSwitch[] = [];
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === "--seed") seed = wholeNumber(flag, argv[++i], 1);
    else if (flag === "--tasks") tasks = wholeNumber(flag, argv[++i], 1);
    else if (flag === "--json") json = true;
    else if (flag === "--ablate") {
      const names = (argv[++i] ?? "").split(",").filter(Boolean);
      const bad = names.filter((n) => !HANDLE_SWITCHES.includes(n as HandleSwitch));
      if (names.length === 0 || bad.length > 0)
        fail(
          `--ablate: unknown ${bad.join(", ") || "(none)"}; valid: ${HANDLE_SWITCHES.join(", ")}`,
        );
      ablate = names as HandleSwitch[];
    } else fail(`unknown argument ${flag}`);
  }
  return { seed: seed ?? freshSeed(), tasks, ablate, json };
}

/**
 * The handle message a session with this task is shown for the task's file, and the search of
 * that file by the task's question.
 */
async function handleFor(
  task: LiveTask,
  options: HandleOptions,
  home: string,
): Promise<{
  message: string;
  search?: { best: string; answer: string };
  example?: { best: string; answer: string };
}> {
  const store = await openSqliteOutputStore({ home });
  try {
    const scope = { sessionId: "ses_handles" };
    const record = await store.put(
      {
        sessionId: scope.sessionId,
        toolName: "fs__read_text_file",
        toolArgs: JSON.stringify({ path: `data/${task.fileName}` }),
      },
      task.text,
    );
    const message = await defaultHandleMessage(record, store, scope, 5, {
      ...options,
      taskText: task.question,
    });
    if (task.question.trim() === "") return { message };
    const query = exampleQuery(message);
    return {
      message,
      search: await searchByQuestion(store, record, scope, task.question),
      ...(query ? { example: await searchByQuestion(store, record, scope, query) } : {}),
    };
  } finally {
    await store.close();
  }
}

const { seed, tasks, ablate, json } = parse(process.argv.slice(2));
process.stderr.write(
  `eval:handles: seed ${seed}, ${tasks} tasks; run it again with --seed ${seed}\n`,
);
const on = (name: HandleSwitch) => !ablate.includes(name);
const options: HandleOptions = {
  ...(on("taskRecord") ? { taskRecord: true } : {}),
  ...(on("taskFocus") ? { taskFocus: true } : {}),
  ...(on("thresholdLines") ? { thresholdLines: true } : {}),
  ...(on("formLines") ? { formLines: true } : {}),
};
const byKind = new Map<string, { shown: number; best: number; tasks: number }>();
const shownIds: string[] = [];
const bestIds: string[] = [];
const aloneIds: string[] = [];
let alikes = 0;
let alikesInMessages = 0;
const searchBestIds: string[] = [];
const searchIds: string[] = [];
const exampleBestIds: string[] = [];
const exampleIds: string[] = [];
let chars = 0;
for (const task of drawTasks({ seed, count: tasks })) {
  const home = mkdtempSync(join(tmpdir(), "spillway-handles-"));
  try {
    const { message, search, example } = await handleFor(
      on("taskSearch") ? task : { ...task, question: "" },
      options,
      home,
    );
    const values = [task.expected, ...task.accepted];
    const holdsAnswer = (text: string | undefined) =>
      text !== undefined && values.some((value) => text.includes(value));
    if (holdsAnswer(search?.best)) searchBestIds.push(task.id);
    if (holdsAnswer(search?.answer)) searchIds.push(task.id);
    if (holdsAnswer(example?.best)) exampleBestIds.push(task.id);
    if (holdsAnswer(example?.answer)) exampleIds.push(task.id);
    const shown = holdsAnswer(message);
    const bestLines = bestResult(message);
    const inBest = holdsAnswer(bestLines.join("\n"));
    chars += message.length;
    const kind = byKind.get(task.kind) ?? { shown: 0, best: 0, tasks: 0 };
    byKind.set(task.kind, {
      shown: kind.shown + (shown ? 1 : 0),
      best: kind.best + (inBest ? 1 : 0),
      tasks: kind.tasks + 1,
    });
    if (shown) shownIds.push(task.id);
    if (inBest) bestIds.push(task.id);
    const bestText = withoutLineNumbers(bestLines).join("\n");
    const alone = inBest && !task.decoys.some((decoy) => holdsValue(bestText, decoy));
    if (alone) aloneIds.push(task.id);
    if (inBest) alikes += lookAlikes(bestLines, values);
    alikesInMessages += lookAlikes(message.split("\n"), values);
    const where = inBest ? `, in the best result${alone ? " without a decoy" : ""}` : "";
    process.stdout.write(
      `${task.id} ${task.shape}/${task.kind}: ${shown ? `shown${where}` : "not shown"} · ${message.length} characters\n`,
    );
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
const kinds = Object.fromEntries([...byKind].sort(([a], [b]) => a.localeCompare(b)));
process.stdout.write(
  `expected value in the handle message: ${shownIds.length} of ${tasks} tasks (${Object.entries(
    kinds,
  )
    .map(([kind, k]) => `${kind} ${k.shown}/${k.tasks}`)
    .join(", ")}); in the search's best result: ${bestIds.length} (${Object.entries(kinds)
    .map(([kind, k]) => `${kind} ${k.best}/${k.tasks}`)
    .join(
      ", ",
    )}); in it without a decoy: ${aloneIds.length}; values of the answer's form beside it there: ${alikes}, in the whole messages: ${alikesInMessages}; ${chars} characters in all${ablate.length > 0 ? `; off: ${ablate.join(", ")}` : ""}\n`,
);
if (on("taskSearch"))
  process.stdout.write(
    `get_tool_output's search with the question as its query: the expected value in its best result on ${searchBestIds.length} of ${tasks} tasks, in its answer on ${searchIds.length}; with the handle message's example query: ${exampleBestIds.length} and ${exampleIds.length}\n`,
  );
if (json)
  process.stdout.write(
    `${JSON.stringify({ eval: "handles", model: "none (deterministic proxy)", seed, tasks, ablate, shown: shownIds.length, best: bestIds.length, bestAlone: aloneIds.length, lookAlikes: alikes, lookAlikesInMessages: alikesInMessages, searchBest: searchBestIds.length, searchAnswer: searchIds.length, exampleBest: exampleBestIds.length, exampleAnswer: exampleIds.length, chars, kinds, shownIds, bestIds, aloneIds, searchBestIds, searchIds, exampleBestIds, exampleIds })}\n`,
  );
