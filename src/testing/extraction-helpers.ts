import type { ChatRequest } from "./chat-types.js";
import { textOf } from "./policy-helpers.js";
import type { ScriptedReply } from "./scripted-reply.js";

/**
 * Helpers for scripted extraction models: recognise spillway's extraction calls (map, reduce,
 * or the read-grep agent's) in a request, and answer in their final-report contract.
 */

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
  if (!prompt.startsWith("You are an internal extraction agent.")) return undefined;
  const nonce = /<ai-agent-([0-9a-f]+)-FINAL format="text">/.exec(prompt)?.[1] ?? "";
  const query =
    /WHAT TO EXTRACT\n([\s\S]*?)\n\n(?:OUTPUT FORMAT|CHUNK OUTPUTS)/.exec(prompt)?.[1] ?? "";
  if (prompt.includes("You can only use Read and Grep tools."))
    return { kind: "read-grep", nonce, query, text: "" };
  if (prompt.includes("synthesize multiple chunk extractions")) {
    const outputs = /CHUNK OUTPUTS\n([\s\S]*?)\n\nOUTPUT FORMAT/.exec(prompt)?.[1] ?? "";
    return { kind: "reduce", nonce, query, text: outputs };
  }
  const chunk = /- Index: (\d+) of (\d+)/.exec(prompt);
  const user = request.messages.find((m) => m.role === "user");
  const body = user ? textOf(user) : "";
  return {
    kind: "map",
    nonce,
    query,
    chunk: Number(chunk?.[1]),
    chunks: Number(chunk?.[2]),
    text: body.slice(body.indexOf("\n\n") + 2),
  };
}

/** The wrapped answer text (quotes as `> ` lines after QUOTES:), e.g. for agent__final_report. */
export function extractionReport(
  nonce: string,
  answer: string,
  quotes: readonly string[] = [],
  confidence?: number,
): string {
  const lines = [answer];
  if (quotes.length > 0) lines.push("QUOTES:", ...quotes.map((q) => `> ${q}`));
  if (confidence !== undefined) lines.push(`CONFIDENCE: ${confidence}`);
  return `<ai-agent-${nonce}-FINAL format="text">\n${lines.join("\n")}\n</ai-agent-${nonce}-FINAL>`;
}

/** A scripted reply answering an extraction call. */
export function extractionAnswer(
  nonce: string,
  answer: string,
  quotes: readonly string[] = [],
  confidence?: number,
): ScriptedReply {
  return { text: extractionReport(nonce, answer, quotes, confidence) };
}

/** A scripted reply saying a chunk holds nothing relevant. */
export function noRelevantData(nonce: string, description = "other log lines"): ScriptedReply {
  return {
    text: `<ai-agent-${nonce}-FINAL format="text">\nNO RELEVANT DATA FOUND\n${description}\n</ai-agent-${nonce}-FINAL>`,
  };
}
