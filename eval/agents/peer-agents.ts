/**
 * Blind scripted agents for the peer policies, each playing its policy as a competent model
 * would from what the policy shows: answer from a cut view when it holds the answer; page
 * forward with get_continuation (jumping to the end when the question is about the end); grep
 * and read a spilled file with Read/Grep; or search it with a shell (grep -o, jq, tail, sed),
 * as Claude Code and Goose can. They see the prompt, the tools and the results; never the task.
 */
import {
  type Action,
  type BlindAgent,
  type Conversation,
  call,
  fetchOf,
  questionOf,
  report,
  type Step,
} from "./conversation.js";
import { parseQuestion, type Question, searchTermOf } from "./question.js";
import { readAnswer } from "./reader.js";
import { NOT_FOUND } from "./spillway-agent.js";

function start(conversation: Conversation): { q: Question; first?: Action; found?: string } {
  const q = parseQuestion(questionOf(conversation.prompt));
  if (conversation.steps.length === 0)
    return { q, first: fetchOf(conversation.prompt) ?? report(NOT_FOUND) };
  for (const step of conversation.steps) {
    const reading = readAnswer(q, step.result);
    if (reading.kind === "answer") return { q, found: `The answer is ${reading.value}.` };
  }
  return { q };
}

/** A policy with one view and no way back: answer from what it showed, or say it is not there. */
export const viewAgent: BlindAgent = (conversation) => {
  const { first, found } = start(conversation);
  return first ?? report(found ?? NOT_FOUND);
};

const MARKER =
  /\[truncated — showing (\d+)\/(\d+) chars\. Call get_continuation with tool_call_id="([^"]+)"/;

/** The text of a page without its truncation marker. */
const pageBody = (result: string) => result.replace(/\n?\[truncated — showing [^\]]*\]\s*$/, "");

/**
 * Continuation paging: read the next page until the answer shows (a cue and its value can sit on
 * two pages: read them together); a question about the end jumps to the last page first.
 */
export const pagingAgent: BlindAgent = (conversation) => {
  const { q, first, found } = start(conversation);
  if (first) return first;
  if (found) return report(found);
  const { steps } = conversation;
  const last = steps.at(-1)!;
  const twoPages = steps.slice(-2).map((s) => pageBody(s.result));
  const across = readAnswer(q, twoPages.join(""));
  if (across.kind === "answer") return report(`The answer is ${across.value}.`);
  const marker = MARKER.exec(last.result);
  if (!marker) return report(NOT_FOUND);
  const shown = Number(marker[1]);
  const total = Number(marker[2]);
  const pages = steps.filter((s) => s.tool === "get_continuation");
  if (q.atEnd && pages.length === 0)
    return call("get_continuation", {
      tool_call_id: marker[3]!,
      offset: Math.max(shown, total - shown),
    });
  return call("get_continuation", { tool_call_id: marker[3]!, offset: shown });
};

/** The spilled file's path in a `<persisted-output>` message. */
export function spilledPath(text: string): string | undefined {
  return /Full output saved to: (\S+)/.exec(text)?.[1];
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Spill to file with Read and Grep (no shell), as Claude Code's tools take them: grep the term
 * with line numbers and context, then read the lines around the first hit.
 */
export const readGrepAgent: BlindAgent = (conversation) => {
  const { q, first, found } = start(conversation);
  if (first) return first;
  if (found) return report(found);
  const { steps } = conversation;
  const path = spilledPath(steps[0]!.result);
  const term = searchTermOf(q);
  if (!path || !term) return report(NOT_FOUND);
  const grep = steps.find((s) => s.tool === "Grep");
  if (!grep)
    return call("Grep", {
      pattern: term.regex ? term.pattern : escapeRegex(term.pattern),
      path,
      output_mode: "content",
      "-n": true,
      "-C": q.before ? 6 : 3,
    });
  const hit = /^(\d+):/m.exec(grep.result);
  if (!hit || steps.some((s) => s.tool === "Read")) return report(NOT_FOUND);
  return call("Read", { file_path: path, offset: Math.max(1, Number(hit[1]) - 8), limit: 50 });
};

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The array of records a JSON preview starts with (`{"orders": [{…`), as a jq path. */
export function jqRecords(preview: string): string {
  const m =
    /^\s*\{\s*(?:"[^"]*"\s*:\s*(?:"[^"]*"|[\d.eE+-]+|true|false|null)\s*,\s*)*"([\w$]+)"\s*:\s*\[\s*\{/.exec(
      preview,
    );
  if (m) return `.${m[1]}[]`;
  return /^\s*\[\s*\{/.test(preview) ? ".[]" : ".. | objects";
}

/** The commands a competent shell user runs for the question, in order (the next one if the last did not answer). */
function shellCommands(q: Question, path: string, preview: string): string[] {
  const file = quote(path);
  const term = searchTermOf(q);
  if (!term) return [];
  const json = /^\s*[[{]/.test(preview.replace(/^[\s\S]*?Preview \(first 2KB\):\n/, ""));
  if (q.id && json) {
    const records = jqRecords(preview.replace(/^[\s\S]*?Preview \(first 2KB\):\n/, ""));
    return [
      `jq -c ${quote(`${records} | select(.id? == "${q.id}")`)} ${file} | head -c 20000`,
      `grep -o -E ${quote(`.{0,300}${escapeRegex(q.id)}.{0,1500}`)} ${file} | head -n 3`,
    ];
  }
  if (term.regex) return [`grep -n -o -P ${quote(term.pattern)} ${file} | head -n 20`];
  if (q.before)
    return [`grep -n -B 8 -F ${quote(term.pattern)} ${file} | tail -n 30`, `tail -n 40 ${file}`];
  return [
    `grep -n -o -E ${quote(`.{0,300}${escapeRegex(term.pattern)}.{0,300}`)} ${file} | head -n 5`,
    `grep -n -A 40 -F ${quote(term.pattern)} ${file} | head -n 80`,
    `grep -o -E ${quote(`.{0,1000}${escapeRegex(term.pattern)}.{0,3000}`)} ${file} | head -n 2`,
  ];
}

/**
 * Spill to file with a shell (Claude Code's Bash, Goose's shell): grep -o around the term,
 * jq to select the record from JSON, tail/grep -B for what comes just before a phrase at the end.
 */
export const shellAgent: BlindAgent = (conversation) => {
  const { q, first, found } = start(conversation);
  if (first) return first;
  if (found) return report(found);
  const { steps } = conversation;
  const path = spilledPath(steps[0]!.result);
  if (!path) return report(NOT_FOUND);
  const ran = steps.filter((s: Step) => s.tool === "Bash");
  const next = shellCommands(q, path, steps[0]!.result)[ran.length];
  return next
    ? call("Bash", { command: next, description: "Search the saved output" })
    : report(NOT_FOUND);
};
