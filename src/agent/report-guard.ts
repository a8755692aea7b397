/**
 * The report guards (SW-25 in docs/architecture.md): a final report is sent back, at most once a
 * session, when it
 * - gives the id of an output shown by handle and never read, whole or its random part alone, as
 *   if it were a value (not in the final turn: nothing can be read then; `report-unread-id.ts`);
 * - repeats runtime text: a sentence the model was shown that no output holds and the task did
 *   not say (a notice, a note, a handle message);
 * - states a code-like value that no tool result of the session showed, nor the task.
 * Sent back in the final turn, the report gets one more final turn. A report after that send-back
 * that is nothing but runtime text, or an unread output's id among the task's own words, ends the
 * session without an answer (`reportAfterSendBack`); one that also holds something else is
 * delivered without its lines of runtime text. A
 * report quoting what a read returned is never sent back: the checks look for the report's
 * values in those results, and a read's result, its header included, is what the read returned,
 * not runtime text. A report before any read is taken when it passes these checks: sending such
 * reports back gained no right answers on fresh live tasks (SW-25 says how it was measured).
 */
import { guided } from "../config/guidance.js";
import { clipText } from "../core/clip-text.js";
import { escapeRegExp } from "../core/escape-regexp.js";
import { grepOutput } from "../retrieval/grep.js";
import {
  MIN_SENTENCE_CHARS,
  normalizedText,
  QUOTE_MARKS,
  reportSentences,
  unseenValues,
  withoutLinePrefix,
} from "./report-checks.js";
import { renderedOnce, returnedTexts, type ShownResults } from "./report-shown.js";
import {
  idGivenAsValue,
  type ReturnedTexts,
  unreadIdsGiven,
  unreadOutputs,
} from "./report-unread-id.js";
import type { SessionContext } from "./session-context.js";

/** Values named in the note, at most. */
const NAMED = 3;
/** Report sentences looked up in the outputs, at most. */
const SENTENCES_CHECKED = 6;

/**
 * Why this report is not taken yet, or undefined to take it.
 *
 * @example
 * await reportGuard(context, "This is turn 2 of 8. Your context window is 9% full.");
 * // "Not delivered: your report repeats text that spillway wrote …"
 */
export async function reportGuard(
  context: SessionContext,
  report: string,
): Promise<string | undefined> {
  const { state } = context;
  if (!guided(context.settings, "reportGuards") || state.reportsSentBack > 0) return undefined;
  // Every tool result is rendered once per report, for whichever checks run.
  const shown = renderedOnce(context);
  const unread = state.finalTurn ? [] : await unreadOutputs(context);
  const note =
    (await idGivenAsValue(context, report, unread, returnedTexts(shown))) ??
    (await runtimeEcho(context, report, shown)) ??
    (await unseenValue(context, report, shown));
  if (note !== undefined) {
    state.reportsSentBack++;
    state.sentBackTurn = state.turn;
  }
  return note;
}

/** What the user and the agent's author wrote: quoting it is not copying runtime text. */
const authored = (context: SessionContext) =>
  normalizedText(`${context.state.taskText ?? ""}\n${context.systemPrompt}`);

/** A quote mark of any style, in a pattern. */
const ANY_QUOTE = `[${QUOTE_MARKS.source.slice(1, -1)}]`;

/** Whether some stored output of the session holds the sentence (spacing, case and quotes aside). */
async function anOutputHolds(
  context: SessionContext,
  outputIds: readonly string[],
  sentence: string,
): Promise<boolean> {
  // The sentence is normalized (quotes folded to `"`): any quote mark of the output matches one.
  const pattern = sentence
    .split(" ")
    .map((word) => escapeRegExp(word).replaceAll('"', ANY_QUOTE))
    .join("\\s+");
  const scope = { sessionId: context.sessionId };
  for (const id of outputIds) {
    const opened = await context.outputs.open(id, scope);
    try {
      const found = await grepOutput(opened, {
        pattern,
        regex: true,
        ignoreCase: true,
        maxMatches: 1,
      });
      if (found.matches.length > 0) return true;
    } catch {
      // A search that cannot run (a binary output, the deadline) proves nothing either way.
    } finally {
      await opened.close();
    }
  }
  return false;
}

/** A numbered row of a handle message (`  195| …`): a line of the output, perhaps with its fields named. */
const QUOTED_ROW = /^ *[\d,]+\| .*$/gm;

/**
 * Runtime text without the output's lines it quotes: a row shown with its header's names
 * (`shipment_id=SHP-957108, warehouse=WH-FR-057`) is the output's content, though no output
 * holds it in that form.
 */
const withoutQuotedRows = (text: string) => text.replace(QUOTED_ROW, "");

/**
 * A test for a report sentence the runtime wrote, that no read returned and no one authored
 * (whether an output holds it is `anOutputHolds`'s question, asked of a few).
 */
function runtimeWrote(context: SessionContext, shown: ShownResults): (sentence: string) => boolean {
  const runtime = normalizedText(
    [...context.state.noticesShown, ...shown.runtime.map(withoutQuotedRows)].join("\n"),
  );
  const returned = normalizedText(shown.returned.join("\n"));
  const own = authored(context);
  return (s) => runtime.includes(s) && !returned.includes(s) && !own.includes(s);
}

/** The `runtimeWrote` test of one report's settlement, asked for where it is needed. */
type RuntimeWroteOnce = () => Promise<(sentence: string) => boolean>;

/** `runtimeWrote` over the session's rendered results, built on first use and then reused. */
function runtimeWroteOnce(
  context: SessionContext,
  shownOnce: () => Promise<ShownResults>,
): RuntimeWroteOnce {
  let built: Promise<(sentence: string) => boolean> | undefined;
  return () => {
    built ??= shownOnce().then((shown) => runtimeWrote(context, shown));
    return built;
  };
}

/**
 * A sentence of the report that the runtime wrote, that no read returned, no output holds and no
 * one authored.
 */
async function echoedSentence(
  context: SessionContext,
  report: string,
  shownOnce: () => Promise<ShownResults>,
): Promise<string | undefined> {
  const shown = await shownOnce();
  const wrote = runtimeWrote(context, shown);
  const candidates = reportSentences(report).filter(wrote).slice(0, SENTENCES_CHECKED);
  for (const sentence of candidates) {
    if (!(await anOutputHolds(context, shown.outputIds, withoutLinePrefix(sentence))))
      return sentence;
  }
  return undefined;
}

/**
 * The report's first sentence when every sentence of it is runtime text (as `echoedSentence`
 * finds it), else undefined: a report that says anything else may hold an answer.
 */
async function onlyRuntimeText(
  context: SessionContext,
  report: string,
  wroteOnce: RuntimeWroteOnce,
  shownOnce: () => Promise<ShownResults>,
): Promise<string | undefined> {
  const whole = normalizedText(report);
  const found = reportSentences(report);
  // reportSentences adds the whole report as one more sentence; here each part must match.
  const sentences = found.length > 1 ? found.filter((s) => s !== whole) : found;
  if (sentences.length === 0 || !sentences.every(await wroteOnce())) return undefined;
  const { outputIds } = await shownOnce();
  for (const sentence of sentences.slice(0, SENTENCES_CHECKED)) {
    if (await anOutputHolds(context, outputIds, withoutLinePrefix(sentence))) return undefined;
  }
  return sentences[0];
}

/** The note for a report that repeats runtime text. */
async function runtimeEcho(
  context: SessionContext,
  report: string,
  shownOnce: () => Promise<ShownResults>,
): Promise<string | undefined> {
  const sentence = await echoedSentence(context, report, shownOnce);
  if (sentence === undefined) return undefined;
  return [
    `Not delivered: your report repeats text that spillway wrote ("${clipText(sentence, 100)}"), not something a tool returned.`,
    "Report the answer your task asks for, as the tool results you read wrote it.",
  ].join("\n");
}

/**
 * A report after the session's one send-back, settled: refused with the reason when it is
 * nothing but runtime text or an unread output's id among the task's words
 * (`runtimeTextAgain`), else the report to deliver, its lines of runtime text taken out
 * (`withoutRuntimeLines`). Before any send-back, or with the guards off, the report as written.
 * The session's tool results are rendered once for both.
 *
 * @example
 * await reportAfterSendBack(context, "Not delivered: your report gives out_1 as a value, …");
 * // { refused: "The final report was only text spillway wrote (…), …" }
 */
export async function reportAfterSendBack(
  context: SessionContext,
  report: string,
): Promise<{ readonly refused: string } | { readonly report: string }> {
  if (!guided(context.settings, "reportGuards") || context.state.reportsSentBack === 0)
    return { report };
  const shown = renderedOnce(context);
  const wroteOnce = runtimeWroteOnce(context, shown);
  const refused = await runtimeTextAgain(context, report, wroteOnce, shown);
  return refused !== undefined
    ? { refused }
    : { report: await withoutRuntimeLines(context, report, wroteOnce, shown) };
}

/**
 * Why a report after the session's one send-back is not an answer: it is nothing but text the
 * runtime wrote (often the send-back note itself). It is not sent back again (the guards add at
 * most one turn), and not delivered either: runtime text never passes for an answer, so the
 * session ends without one. A report that also says anything else is delivered: it may hold
 * the answer.
 */
async function runtimeTextAgain(
  context: SessionContext,
  report: string,
  wroteOnce: RuntimeWroteOnce,
  shownOnce: () => Promise<ShownResults>,
): Promise<string | undefined> {
  const id = await onlyAnUnreadId(context, report, returnedTexts(shownOnce));
  if (id !== undefined)
    return `The final report gave ${id}, the name spillway gave an output that was never read, as its answer, with nothing but the task's words besides, after a report had been sent back once; no answer was delivered.`;
  const sentence = await onlyRuntimeText(context, report, wroteOnce, shownOnce);
  if (sentence === undefined) return undefined;
  return `The final report was only text spillway wrote ("${clipText(sentence, 100)}"), not something a tool returned, after a report had been sent back once; no answer was delivered.`;
}

/** Report lines looked up in the outputs before one is taken out, at most. */
const LINES_CHECKED = 24;

/**
 * A report delivered after the session's one send-back, without its lines that are wholly
 * runtime text (a note, a handle message's sentences, as `runtimeWrote` finds them, that no
 * output holds): runtime text never passes for content, and a small model often pastes the
 * send-back note and the handle message around the output's lines it means. Lines of the
 * output it quoted stay, as does any line with a word of its own; when nothing else is left, or
 * nothing is runtime text, the report is as written. The call's arguments keep the report as
 * the model sent it.
 */
async function withoutRuntimeLines(
  context: SessionContext,
  report: string,
  wroteOnce: RuntimeWroteOnce,
  shownOnce: () => Promise<ShownResults>,
): Promise<string> {
  const wrote = await wroteOnce();
  const { outputIds } = await shownOnce();
  const kept: string[] = [];
  let checked = 0;
  let dropped = false;
  for (const line of report.split("\n")) {
    const text = normalizedText(line);
    const candidate = checked < LINES_CHECKED && text.length >= MIN_SENTENCE_CHARS && wrote(text);
    if (candidate) checked++;
    if (candidate && !(await anOutputHolds(context, outputIds, withoutLinePrefix(text))))
      dropped = true;
    else kept.push(line);
  }
  const rest = kept
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return !dropped || rest === "" ? report : rest;
}

/** A report's words: runs of letters and digits, normalized. */
const wordsOf = (text: string) => normalizedText(text).match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * The unread output's id a report gives when, that id aside, every word of it is one the task or
 * the agent's instructions wrote ("The full commit SHA this build checked out is out_…"): such a
 * report answers with a name spillway coined and adds nothing of its own. A word from anywhere
 * else (a name, a value) may be the answer, so that report is delivered.
 */
async function onlyAnUnreadId(
  context: SessionContext,
  report: string,
  returned: ReturnedTexts,
): Promise<string | undefined> {
  const quoted = (await unreadIdsGiven(report, await unreadOutputs(context), returned)).map(
    (id) => id.given,
  );
  if (quoted.length === 0) return undefined;
  const rest = quoted.reduce((text, given) => text.replaceAll(given, " "), report);
  const own = authored(context);
  return wordsOf(rest).every((word) => own.includes(word)) ? quoted[0]! : undefined;
}

/** A code-like value of the report that no tool result showed and the task did not name. */
async function unseenValue(
  context: SessionContext,
  report: string,
  shownOnce: () => Promise<ShownResults>,
): Promise<string | undefined> {
  const shown = await shownOnce();
  const seen = [
    ...shown.returned,
    ...shown.runtime,
    context.state.taskText ?? "",
    context.systemPrompt,
    ...shown.places,
  ];
  const values = unseenValues(report, seen);
  if (values.length === 0) return undefined;
  // Named as the report wrote them.
  const named = values
    .slice(0, NAMED)
    .map((v) => JSON.stringify(new RegExp(escapeRegExp(v), "i").exec(report)?.[0] ?? v))
    .join(", ");
  return [
    `Not delivered: your report gives ${named}, which no tool result of this session showed.`,
    context.state.finalTurn
      ? "Report only values the tool results you read showed, exactly as they wrote them."
      : "Read the output for the value your task asks for, or report only values the tool results showed, exactly as they wrote them.",
  ].join("\n");
}
