/**
 * The final-report contract of extraction calls (D0-6): the answer is wrapped
 * in `<ai-agent-<NONCE>-FINAL format="text"> … </ai-agent-<NONCE>-FINAL>` with the call's own
 * nonce; the closing tag is optional (models omit it). No opening tag means no answer.
 */

export const NO_RELEVANT_DATA = "NO RELEVANT DATA FOUND";
/** The line after which an answer lists its verbatim quotes, one per line after QUOTE_PREFIX. */
export const QUOTES_LABEL = "QUOTES:";
export const QUOTE_PREFIX = "> ";
/** An optional line `CONFIDENCE: 0.0-1.0`. */
export const CONFIDENCE_LABEL = "CONFIDENCE:";

export function openingTag(nonce: string): string {
  return `<ai-agent-${nonce}-FINAL format="text">`;
}

export function closingTag(nonce: string): string {
  return `</ai-agent-${nonce}-FINAL>`;
}

/**
 * An answer in the contract: the text, its quotes and confidence, wrapped with the nonce. The
 * one writer of the format that {@link parseAnswer} reads (scripted models use it too).
 *
 * @example
 * wrapFinalReport("3f2a", "The first error is at line 812.", ["ERROR pool exhausted"]);
 */
export function wrapFinalReport(
  nonce: string,
  answer: string,
  quotes: readonly string[] = [],
  confidence?: number,
): string {
  const lines = [answer];
  if (quotes.length > 0) lines.push(QUOTES_LABEL, ...quotes.map((q) => `${QUOTE_PREFIX}${q}`));
  if (confidence !== undefined) lines.push(`${CONFIDENCE_LABEL} ${confidence}`);
  return `${openingTag(nonce)}\n${lines.join("\n")}\n${closingTag(nonce)}`;
}

/** The content of the wrapper, or undefined when the reply has no opening tag. */
export function unwrapFinalReport(reply: string, nonce: string): string | undefined {
  const open = reply.indexOf(openingTag(nonce));
  if (open === -1) return undefined;
  const from = open + openingTag(nonce).length;
  const close = reply.indexOf(closingTag(nonce), from);
  return (close === -1 ? reply.slice(from) : reply.slice(from, close)).trim();
}

export interface ParsedAnswer {
  /** False when the model said NO RELEVANT DATA FOUND. */
  readonly relevant: boolean;
  /** The answer, or (when not relevant) the description of what the text holds instead. */
  readonly text: string;
  /** Verbatim quotes the model relied on (lines after QUOTES:, each starting with "> "). */
  readonly quotes: string[];
  /** The model's own confidence, 0..1, when it gave one. */
  readonly confidence?: number;
}

/** Splits a wrapper's content into answer, quotes and confidence. */
export function parseAnswer(content: string): ParsedAnswer {
  let text = content;
  let confidence: number | undefined;
  const confidenceLine = /^CONFIDENCE:\s*([0-9]*\.?[0-9]+)\s*$/m.exec(text);
  if (confidenceLine) {
    const value = Number(confidenceLine[1]);
    if (value >= 0 && value <= 1) confidence = value;
    text = text.replace(confidenceLine[0], "");
  }
  const quotes: string[] = [];
  const marker = /^QUOTES:\s*$/m.exec(text);
  if (marker) {
    for (const line of text.slice(marker.index + marker[0].length).split("\n")) {
      if (line.startsWith("> ")) quotes.push(line.slice(2).replace(/\r$/, ""));
    }
    text = text.slice(0, marker.index);
  }
  text = text.trim();
  if (text.startsWith(NO_RELEVANT_DATA)) {
    return { relevant: false, text: text.slice(NO_RELEVANT_DATA.length).trim(), quotes: [] };
  }
  return { relevant: true, text, quotes, ...(confidence !== undefined ? { confidence } : {}) };
}
