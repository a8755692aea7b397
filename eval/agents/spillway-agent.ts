/**
 * The blind scripted agent on spillway's default surface. It sees the prompt, the tool schemas
 * and the tool results; it reads the handle message (or the ready text), takes the reads it
 * suggests, builds its grep pattern or JSONPath from the question's words and the shown outline,
 * reads around a hit when the hit alone does not answer, and reports what it read. It never
 * sees the task: not its answer, kind, position or id.
 */
import { findOutputIds } from "../../src/testing/index.js";
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

const GET = "get_tool_output";
const WAIT = "wait_for_tool_output";
export const NOT_FOUND = "I could not find it in what I read.";

/** The modes the shown text suggests (`mode="grep"`, or a ready text's `- "slice":` list). */
export function suggestedModes(text: string): string[] {
  const modes = [...text.matchAll(/mode="(\w+)"/g), ...text.matchAll(/^- "(\w+)":/gm)].map(
    (m) => m[1]!,
  );
  return [...new Set(modes)];
}

/** The modes a tool schema offers (its `mode` enum). */
export function schemaModes(conversation: Conversation, tool: string): string[] {
  const spec = conversation.tools.find((t) => t.name === tool);
  const mode = (spec?.parameters as { properties?: { mode?: { enum?: unknown } } } | undefined)
    ?.properties?.mode?.enum;
  return Array.isArray(mode) ? mode.filter((m): m is string => typeof m === "string") : [];
}

/**
 * A JSONPath selecting the object with `id` from a JSON outline the handle message showed
 * (`.orders: array…` / `[*]: object` / `.id: string`), else a recursive-descent query.
 */
export function jsonQueryFor(shown: string, id: string): string {
  const stack: { indent: number; path: string }[] = [];
  for (const line of shown.split("\n")) {
    const m = /^(\s*)(\$|\.[A-Za-z_$][\w$]*|\[\*\]):/.exec(line);
    if (!m) continue;
    const indent = m[1]!.length;
    while (stack.length > 0 && stack.at(-1)!.indent >= indent) stack.pop();
    const parent = stack.at(-1)?.path ?? "";
    const path = m[2] === "$" ? "$" : `${parent}${m[2]}`;
    stack.push({ indent, path });
    if (m[2] === ".id" && parent.endsWith("[*]")) return `${parent.slice(0, -3)}[?(@.id=="${id}")]`;
  }
  return `$..[?(@.id=="${id}")]`;
}

/** The first line number a grep result shows a match on (`LINE:COL: text`). */
function grepHit(text: string): { line: number; long: boolean } | undefined {
  const m = /^(\d+):\d+: (.*)$/m.exec(text);
  if (!m) return undefined;
  return { line: Number(m[1]), long: m[2]!.includes("[excerpt of a long line") };
}

/** The cursor a grep stopped by its deadline offers to go on from, if it was stopped. */
function stoppedCursor(text: string): number | undefined {
  const m = /^\[not searched yet: .*\bcursor=(\d+)\)\]$/m.exec(text);
  return m ? Number(m[1]) : undefined;
}

const same = (a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>) =>
  JSON.stringify(a) === JSON.stringify(b);

/** The reads this agent would make, in order, given what it has read so far. */
function plannedReads(
  q: Question,
  id: string,
  shown: string,
  modes: readonly string[],
  reads: readonly Step[],
  extractFirst: boolean,
): Record<string, unknown>[] {
  const has = (mode: string) => modes.includes(mode);
  const term = searchTermOf(q);
  const plan: Record<string, unknown>[] = [];
  if (extractFirst && has("extract")) plan.push({ id, mode: "extract", query: q.text });
  const json = /kind json|JSON outline/.test(shown);
  if (json && q.id && has("json"))
    plan.push({ id, mode: "json", json_query: jsonQueryFor(shown, q.id) });
  if (term && has("grep")) {
    const grep = {
      id,
      mode: "grep",
      pattern: term.pattern,
      ...(term.regex ? { regex: true } : {}),
      context: q.before ? 6 : 3,
    };
    plan.push(grep);
    let done = reads.find((r) => same(r.args, grep));
    // A grep its deadline stopped before a match goes on from where it stopped, as it says.
    for (
      let cursor = done && !grepHit(done.result) ? stoppedCursor(done.result) : undefined;
      cursor !== undefined;
    ) {
      const more = { ...grep, cursor };
      plan.push(more);
      done = reads.find((r) => same(r.args, more));
      cursor = done && !grepHit(done.result) ? stoppedCursor(done.result) : undefined;
    }
    const hit = done ? grepHit(done.result) : undefined;
    if (hit && has("slice") && !term.regex) {
      // Read around the hit: lines for ordinary text, characters around the cue for long lines.
      plan.push(
        hit.long
          ? { id, mode: "slice", slice: { anchor: term.pattern, window: 1500 } }
          : {
              id,
              mode: "slice",
              slice: { line_start: Math.max(1, hit.line - 8), line_end: hit.line + 40 },
            },
      );
    }
  } else if (term && !term.regex && has("slice")) {
    plan.push({ id, mode: "slice", slice: { anchor: term.pattern, window: 1000 } });
    plan.push({ id, mode: "slice", slice: { anchor: term.pattern, window: 3000 } });
  } else if (term && has("extract") && !extractFirst) {
    plan.push({ id, mode: "extract", query: q.text });
  }
  return plan;
}

/** The answer an extraction result gives: its first paragraph, unless it found nothing. */
function extractionAnswerOf(result: string): string | undefined {
  if (result.startsWith("Error ") || /^(WARNING|No relevant data found)/.test(result))
    return undefined;
  return result.split("\n\n")[0]!.trim() || undefined;
}

function answered(q: Question, steps: readonly Step[]): string | undefined {
  for (const step of steps) {
    if (step.tool === GET && step.args.mode === "extract") {
      const relayed = extractionAnswerOf(step.result);
      if (relayed) return relayed;
      continue;
    }
    if (step.result.startsWith("Error ")) continue;
    const reading = readAnswer(q, step.result);
    if (reading.kind === "answer") return `The answer is ${reading.value}.`;
  }
  return undefined;
}

/**
 * The agent: fetch as the prompt says, answer from what is shown, else read the stored output
 * the way the shown text suggests (at most `maxReads` reads), then report.
 *
 * @example
 * startScriptedModelServer({ respond: responderOf(spillwayAgent({ extractFirst: false })) });
 */
export function spillwayAgent(options: { extractFirst: boolean; maxReads?: number }): BlindAgent {
  const maxReads = options.maxReads ?? 5;
  return (conversation): Action => {
    const q = parseQuestion(questionOf(conversation.prompt));
    const { steps } = conversation;
    if (steps.length === 0) return fetchOf(conversation.prompt) ?? report(NOT_FOUND);
    const found = answered(q, steps);
    if (found) return report(found);
    const shown = steps[0]!.result;
    const id = findOutputIds(shown)[0];
    if (!id) return report(NOT_FOUND);
    // Still running in the background: wait once, as the result says.
    if (shown.includes("When the System Notice shows") && !steps.some((s) => s.tool === WAIT))
      return call(WAIT, {});
    const offered = schemaModes(conversation, GET);
    const suggested = suggestedModes(shown);
    const modes = suggested.length > 0 ? suggested : offered;
    // The extract-first policy asks for an extraction whenever the tool offers one.
    if (options.extractFirst && offered.includes("extract")) modes.push("extract");
    const reads = steps.filter((s) => s.tool === GET);
    if (reads.length >= maxReads) return report(NOT_FOUND);
    const next = plannedReads(q, id, shown, modes, reads, options.extractFirst).find(
      (args) => !reads.some((r) => same(r.args, args)),
    );
    return next ? call(GET, next) : report(NOT_FOUND);
  };
}
