import { closingTag, openingTag } from "./final-report.js";

/**
 * The extraction prompts, with its placeholders filled in, and one section
 * spillway adds to the map and reduce prompts: QUOTES, the verbatim text an answer relies on,
 * which spillway then verifies against the stored output (provenance, D3-12).
 */

export interface SourceInfo {
  readonly toolName: string;
  /** The tool's arguments, verbatim JSON. */
  readonly toolArgs: string;
  readonly bytes: number;
  readonly lines: number;
  readonly tokens: number;
}

/**
 * The fixed lines that tell extraction calls apart and delimit their sections. Prompts are
 * built from them, and scripted extraction models (spillway/testing) recognise calls by them:
 * one copy, so a prompt change cannot silently break the tests' reading of it.
 */
export const EXTRACTION_PROMPT_MARKERS = {
  intro: "You are an internal extraction agent.",
  readGrep: "You can only use Read and Grep tools.",
  reduce: "You must synthesize multiple chunk extractions into one final answer.",
  map: "You must extract information from a document chunk.",
  whatToExtract: "WHAT TO EXTRACT",
  chunkOutputs: "CHUNK OUTPUTS",
  outputFormat: "OUTPUT FORMAT (required)",
  chunkIndex: "- Index: ",
} as const;

const M = EXTRACTION_PROMPT_MARKERS;

const QUOTES_SECTION = (what: string) =>
  [
    "",
    "QUOTES (required when you found something)",
    `- After your result, inside the wrapper, write a line QUOTES: and below it every piece of ${what} your result relies on,`,
    '  copied verbatim (exact characters, no paraphrase, no added text), one per line, each line starting with "> ".',
    "- Optionally add a line CONFIDENCE: <0.0-1.0> saying how sure you are.",
  ].join("\n");

const wrapper = (nonce: string) => `${openingTag(nonce)} ... ${closingTag(nonce)}`;

/** The full-chunked map system prompt, word for word. */
export function mapSystemPrompt(
  source: SourceInfo,
  chunk: { index: number; total: number },
  overlapPercent: number,
  extract: string,
  nonce: string,
): string {
  return [
    `${M.intro} ${M.map}`,
    "",
    "SOURCE TOOL",
    `- Name: ${source.toolName}`,
    `- Arguments (verbatim JSON): ${source.toolArgs}`,
    "",
    "DOCUMENT STATS",
    `- Bytes: ${source.bytes}`,
    `- Lines: ${source.lines}`,
    `- Tokens (estimate): ${source.tokens}`,
    "",
    "CHUNK INFO",
    `${M.chunkIndex}${chunk.index} of ${chunk.total}`,
    `- Overlap: ${overlapPercent}%`,
    "",
    M.whatToExtract,
    extract,
    "",
    M.outputFormat,
    "- Emit exactly one XML final-report wrapper:",
    `  ${wrapper(nonce)}`,
    "- Put your extracted result inside the wrapper.",
    "- If no relevant data exists, output:",
    "  NO RELEVANT DATA FOUND",
    "  <short description of what kind of information is available in this chunk>",
    QUOTES_SECTION("the chunk"),
  ].join("\n");
}

/** The full-chunked reduce system prompt, word for word. */
export function reduceSystemPrompt(
  source: SourceInfo,
  extract: string,
  chunkOutputs: string,
  nonce: string,
): string {
  return [
    `${M.intro} ${M.reduce}`,
    "",
    "SOURCE TOOL",
    `- Name: ${source.toolName}`,
    `- Arguments (verbatim JSON): ${source.toolArgs}`,
    "",
    M.whatToExtract,
    extract,
    "",
    M.chunkOutputs,
    chunkOutputs,
    "",
    M.outputFormat,
    "- Emit exactly one XML final-report wrapper:",
    `  ${wrapper(nonce)}`,
    "- If no relevant data exists, output:",
    "  NO RELEVANT DATA FOUND",
    "  <short description of what kind of information is available across the chunks>",
    QUOTES_SECTION("text from the chunk outputs' quotes"),
  ].join("\n");
}

/** The read-grep sub-agent's system prompt, word for word (the handle is the file name). */
export function readGrepSystemPrompt(
  source: SourceInfo,
  handle: string,
  extract: string,
  nonce: string,
): string {
  return [
    `${M.intro} ${M.readGrep}`,
    "",
    "IMPORTANT: The handle is the filename.",
    "Use the filename exactly as given when calling Read or Grep.",
    "",
    "SOURCE TOOL",
    `- Name: ${source.toolName}`,
    `- Arguments (verbatim JSON): ${source.toolArgs}`,
    `- Handle/filename: ${handle}`,
    "- Root directory: (spillway's store of this session's tool outputs; only this one file is readable)",
    "",
    M.whatToExtract,
    extract,
    "",
    M.outputFormat,
    "- Deliver your answer with agent__final_report; its report must be exactly one XML final-report wrapper:",
    `  ${wrapper(nonce)}`,
    "- If no relevant data exists, output:",
    "  NO RELEVANT DATA FOUND",
    "  <short description of what kind of information is available in the file>",
    QUOTES_SECTION("the file"),
  ].join("\n");
}
