/**
 * An AI SDK app with a tool that returns a 30 MB log, made lossless by one line:
 * `tools: spillwayTools(tools, { … })`. Run it with `npm run example:ai-sdk` (see README.md
 * beside this file for the models it can use).
 */
import { generateText, stepCountIs, tool } from "ai";
import { spillwayPrepareStep, spillwaySessionOf, spillwayTools } from "spillway/ai";
import { z } from "zod";
import { checkoutLog } from "./log.js";
import { chooseModel } from "./model.js";

const MAX_STEPS = 8;

// The app's own tool, unchanged: it returns the whole log (30 MB), as real tools do.
const fetchLogs = tool({
  description: "Fetch today's complete log of the checkout system.",
  inputSchema: z.object({ date: z.string().describe("The day, e.g. 2026-01-15") }),
  execute: async () => checkoutLog(),
});

const { model, name, tokenBudget } = await chooseModel();
console.error(`model: ${name}`);

// The one-line change: every result is stored whole; the model sees it when it fits, and a
// handle it can search (get_tool_output) when it does not.
const tools = spillwayTools({ fetch_logs: fetchLogs }, { tokenBudget });

const result = await generateText({
  model,
  tools,
  stopWhen: stepCountIs(MAX_STEPS),
  prepareStep: spillwayPrepareStep({ tools, maxSteps: MAX_STEPS }),
  system:
    "You are an on-call engineer. Use the tools; never guess what a log says. A large tool result comes back " +
    "as a stored output's id: search it with get_tool_output (grep for ERROR first), then answer.",
  prompt:
    "Some checkout orders failed on 2026-01-15. Find the error in that day's log that explains it: quote the " +
    "exact line with its line number, and say what caused it.",
});

console.log(result.text);

// What happened, in numbers.
const session = spillwaySessionOf(tools)!;
const outputs = await (await session.store()).list({ sessionId: session.id });
const shown = result.response.messages
  .flatMap((message) => (message.role === "tool" ? message.content : []))
  .map((part) =>
    part.type === "tool-result" && "value" in part.output ? String(part.output.value) : "",
  )
  .reduce((sum, text) => sum + text.length, 0);
const calls = result.steps.flatMap((step) => step.toolCalls.map((call) => call.toolName));
console.error(
  [
    "",
    `tool calls: ${calls.join(", ") || "none"} (${result.steps.length} steps)`,
    ...outputs.map(
      (o) =>
        `stored whole: ${o.id} from ${o.toolName}, ${(o.byteSize ?? 0).toLocaleString("en-US")} bytes, ${(o.lineCount ?? 0).toLocaleString("en-US")} lines (${session.id})`,
    ),
    `the model was shown ${shown.toLocaleString("en-US")} characters of tool results in all`,
  ].join("\n"),
);
