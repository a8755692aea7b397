import { NO_RELEVANT_DATA, openingTag, wrapFinalReport } from "../extraction/final-report.js";
import { EXTRACTION_PROMPT_MARKERS as M } from "../extraction/prompts.js";
import type { ChatRequest } from "./chat-types.js";
import { textOf } from "./policy-helpers.js";
import type { ScriptedReply } from "./scripted-reply.js";

/**
 * Helpers for scripted extraction models: recognise spillway's extraction calls (map, reduce,
 * or the read-grep agent's) in a request, and answer in their final-report contract.
 */

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export interface ExtractionCall {
  readonly kind: "map" | "reduce" | "read-grep";
  /** The nonce of the call's final-report wrapper. */
  readonly nonce: string;
  /** WHAT TO EXTRACT. */
  readonly query: string;
  /** map: 1-based chunk number and the chunk count. */
  readonly chunk?: number;
  readonly chunks?: number;
  /** map: the chunk's text (the user message after its header line); reduce: the chunk outputs. */
  readonly text: string;
}

/**
 * The extraction call a request is, or undefined for an ordinary agent turn.
 *
 * @example
 * const call = extractionCall(request);
 * if (call?.kind === "map") return extractionAnswer(call.nonce, "found it", [lineWithNeedle]);
 */
export function extractionCall(request: ChatRequest): ExtractionCall | undefined {
  const system = request.messages.find((m) => m.role === "system");
  const prompt = system ? textOf(system) : "";
  if (!prompt.startsWith(M.intro)) return undefined;
  const nonce = new RegExp(
    `${escapeRegExp(openingTag("NONCE")).replace("NONCE", "([0-9a-f]+)")}`,
  ).exec(prompt)?.[1];
  const query =
    new RegExp(
      `${escapeRegExp(M.whatToExtract)}\\n([\\s\\S]*?)\\n\\n(?:${escapeRegExp(M.outputFormat)}|${escapeRegExp(M.chunkOutputs)})`,
    ).exec(prompt)?.[1] ?? "";
  if (prompt.includes(M.readGrep))
    return { kind: "read-grep", nonce: nonce ?? "", query, text: "" };
  if (prompt.includes(M.reduce)) {
    const outputs =
      new RegExp(
        `${escapeRegExp(M.chunkOutputs)}\\n([\\s\\S]*?)\\n\\n${escapeRegExp(M.outputFormat)}`,
      ).exec(prompt)?.[1] ?? "";
    return { kind: "reduce", nonce: nonce ?? "", query, text: outputs };
  }
  const chunk = new RegExp(`${escapeRegExp(M.chunkIndex)}(\\d+) of (\\d+)`).exec(prompt);
  const user = request.messages.find((m) => m.role === "user");
  const body = user ? textOf(user) : "";
  return {
    kind: "map",
    nonce: nonce ?? "",
    query,
    chunk: Number(chunk?.[1]),
    chunks: Number(chunk?.[2]),
    text: body.slice(body.indexOf("\n\n") + 2),
  };
}

/**
 * The wrapped answer text (quotes as `> ` lines after QUOTES:), e.g. for agent__final_report.
 *
 * @example
 * toolCall("agent__final_report", { report: extractionReport(call.nonce, "Found it.", [line]) });
 */
export function extractionReport(
  nonce: string,
  answer: string,
  quotes: readonly string[] = [],
  confidence?: number,
): string {
  return wrapFinalReport(nonce, answer, quotes, confidence);
}

/**
 * A scripted reply answering an extraction call.
 *
 * @example
 * if (call?.kind === "map" && call.text.includes(needle))
 *   return extractionAnswer(call.nonce, "The needle is here.", [call.text.split("\n").find((l) => l.includes(needle))!]);
 */
export function extractionAnswer(
  nonce: string,
  answer: string,
  quotes: readonly string[] = [],
  confidence?: number,
): ScriptedReply {
  return { text: extractionReport(nonce, answer, quotes, confidence) };
}

/**
 * A scripted reply saying a chunk holds nothing relevant.
 *
 * @example
 * if (call?.kind === "map" && !call.text.includes(needle)) return noRelevantData(call.nonce);
 */
export function noRelevantData(nonce: string, description = "other log lines"): ScriptedReply {
  return { text: wrapFinalReport(nonce, `${NO_RELEVANT_DATA}\n${description}`) };
}
