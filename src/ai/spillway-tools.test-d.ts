/**
 * Type tests (checked by `npm run typecheck`, part of `npm test`): the wrapped ToolSet keeps
 * each tool's input and output types, adds spillway's tools with theirs, and widens outputs by
 * the background handle only when async tools are on.
 */
import {
  generateText,
  type InferToolInput,
  type InferToolOutput,
  type LanguageModel,
  streamText,
  ToolLoopAgent,
  tool,
} from "ai";
import { expectTypeOf } from "vitest";
import { z } from "zod";
import type { GetToolOutputArgs } from "../surfaces/get-tool-output/schema.js";
import { spillwayPrepareStep } from "./prepare-step.js";
import type { GetToolOutputResult } from "./reads.js";
import { spillwayTools } from "./spillway-tools.js";
import type { SpillwayBackgroundOutput } from "./time-trigger.js";

const search = tool({
  description: "Search.",
  inputSchema: z.object({ query: z.string(), limit: z.number().optional() }),
  execute: async ({ query }) => ({ hits: [query], total: 1 }),
});
const text = tool({
  description: "Text.",
  inputSchema: z.object({ path: z.string() }),
  execute: async ({ path }) => `contents of ${path}`,
});
const streaming = tool({
  description: "Yields progress, then the result.",
  inputSchema: z.object({ n: z.number() }),
  async *execute({ n }) {
    yield { stage: "running" as const, done: 0 };
    yield { stage: "finished" as const, done: n };
  },
});

const tools = spillwayTools({ search, text, streaming });

// Each tool keeps its own type, input and output.
expectTypeOf(tools.search).toEqualTypeOf<typeof search>();
expectTypeOf<InferToolInput<typeof tools.search>>().toEqualTypeOf<{
  query: string;
  limit?: number | undefined;
}>();
expectTypeOf<InferToolOutput<typeof tools.search>>().toEqualTypeOf<{
  hits: string[];
  total: number;
}>();
expectTypeOf<InferToolOutput<typeof tools.text>>().toEqualTypeOf<string>();
expectTypeOf<InferToolOutput<typeof tools.streaming>>().toEqualTypeOf<
  { stage: "running"; done: number } | { stage: "finished"; done: number }
>();

// spillway's tools, typed.
expectTypeOf<InferToolInput<typeof tools.get_tool_output>>().toEqualTypeOf<GetToolOutputArgs>();
expectTypeOf<InferToolOutput<typeof tools.get_tool_output>>().toEqualTypeOf<GetToolOutputResult>();
expectTypeOf(tools).not.toHaveProperty("wait_for_tool_output");

// async: false changes nothing; async on widens outputs by the background handle, adds the wait tool.
const off = spillwayTools({ search }, { async: false, toolResponseMaxBytes: 4096 });
expectTypeOf(off.search).toEqualTypeOf<typeof search>();
const on = spillwayTools({ search }, { async: { timeoutSecs: 2 } });
expectTypeOf<InferToolOutput<typeof on.search>>().toEqualTypeOf<
  { hits: string[]; total: number } | SpillwayBackgroundOutput
>();
expectTypeOf<InferToolInput<typeof on.search>>().toEqualTypeOf<{
  query: string;
  limit?: number | undefined;
}>();
expectTypeOf<InferToolOutput<typeof on.wait_for_tool_output>>().toEqualTypeOf<string>();

// async known only at run time: outputs may be background handles.
declare const flag: boolean;
const maybe = spillwayTools({ search }, { async: flag });
expectTypeOf<InferToolOutput<typeof maybe.search>>().toEqualTypeOf<
  { hits: string[]; total: number } | SpillwayBackgroundOutput
>();

// Callbacks in the options are typed from context (no annotations needed).
spillwayTools(
  { search },
  {
    formatHandle: ({ record, defaultText }) => `${record.id}: ${defaultText.length}`,
    tokenBudget: ({ messages }) => 100_000 - messages.length,
  },
);

// Options are checked.
// @ts-expect-error toolResponseMaxBytes is a number
spillwayTools({ search }, { toolResponseMaxBytes: "12k" });
// @ts-expect-error no such option
spillwayTools({ search }, { maxBytes: 1 });

// The loops see the same types: typed tool results from generateText, streamText and ToolLoopAgent.
declare const model: LanguageModel;
async function loops() {
  const result = await generateText({
    model,
    tools,
    prepareStep: spillwayPrepareStep({ tools, maxSteps: 5 }),
    prompt: "",
  });
  for (const part of result.toolResults) {
    if (part.dynamic) continue;
    if (part.toolName === "search")
      expectTypeOf(part.output).toEqualTypeOf<{ hits: string[]; total: number }>();
    if (part.toolName === "text") expectTypeOf(part.output).toEqualTypeOf<string>();
    if (part.toolName === "get_tool_output")
      expectTypeOf(part.output).toEqualTypeOf<GetToolOutputResult>();
  }
  const streamed = streamText({ model, tools, prompt: "" });
  for (const part of await streamed.toolResults)
    if (part.toolName === "search" && !part.dynamic)
      expectTypeOf(part.input).toEqualTypeOf<{ query: string; limit?: number | undefined }>();
  const agent = new ToolLoopAgent({ model, tools: on });
  const run = await agent.generate({ prompt: "" });
  for (const part of run.toolResults)
    if (part.toolName === "search" && !part.dynamic)
      expectTypeOf(part.output).toEqualTypeOf<
        { hits: string[]; total: number } | SpillwayBackgroundOutput
      >();
}
void loops;
