/**
 * Two scripted stand-ins for the live benchmark's harness tests, blind like every agent here:
 * they see the prompt, the tools offered and the results shown, nothing of the task.
 * - `fileReader` reads the file the question names with the file tool, then looks for the
 *   question's identifier (a word with a digit and a dash or underscore) with whatever the
 *   policy offers to read what was set aside (get_tool_output's grep, Grep over a spilled file),
 *   and reports the first shown line holding it; without one, it says it did not find it.
 * - `inventor` reports a value at once, without reading.
 */
import { type BlindAgent, type Conversation, call, report } from "./conversation.js";

const FILE_TOOL = "fs__read_text_file";
const NOT_FOUND = "I could not find it in what I was shown.";

/** The file a question names (`data/01-app.log`). */
const pathOf = (prompt: string) => /\bdata\/[^\s?,;:]+[^\s?,;:.]/u.exec(prompt)?.[0];

/** The question's identifier: a word holding a digit and a dash, underscore or dot. */
const cueOf = (prompt: string) =>
  prompt
    .match(/[\p{L}\p{N}][\p{L}\p{N}_.-]*[\p{L}\p{N}]/gu)
    ?.find((w) => /\d/.test(w) && /[-_]/.test(w) && !w.startsWith("data/") && !/^\d+-/.test(w));

const offered = (c: Conversation, name: string) => c.tools.some((t) => t.name === name);

/** The first line holding the cue as content: not a call or a header quoting it as a pattern. */
function lineWith(text: string, cue: string): string | undefined {
  return text
    .split("\n")
    .find(
      (line) =>
        line.includes(cue) && !line.includes(`"${cue}"`) && !line.includes("get_tool_output("),
    );
}

export const fileReader: BlindAgent = (c) => {
  const path = pathOf(c.prompt);
  const cue = cueOf(c.prompt);
  const last = c.steps.at(-1);
  const onlyReport = c.tools.length === 1;
  if (!last) return path && !onlyReport ? call(FILE_TOOL, { path }) : report(NOT_FOUND);
  const found = cue ? lineWith(last.result, cue) : undefined;
  if (found || onlyReport || !cue) return report(found?.trim() ?? NOT_FOUND);
  if (last.tool === FILE_TOOL) {
    const handle = /get_tool_output\(id="(out_[a-z0-9]+)"/.exec(last.result)?.[1];
    if (handle && offered(c, "get_tool_output"))
      return call("get_tool_output", { id: handle, mode: "grep", pattern: cue, context: 0 });
    const spilled = /Full output saved to: (\S+)/.exec(last.result)?.[1];
    if (spilled && offered(c, "Grep"))
      return call("Grep", { pattern: cue, path: spilled, output_mode: "content" });
  }
  return report(NOT_FOUND);
};

export const inventor: BlindAgent = () => report("It is ZZQ-90817.");
