/**
 * spillway/ai with a real model: the embedded local model (Qwen2.5-Coder 1.5B Instruct,
 * Q4_K_M, run in-process by node-llama-cpp) in a plain AI SDK generateText loop. Its tool
 * returns a log too large to show; the model must read the handle message, search the stored
 * output with get_tool_output and answer from what it read. Runs when the model file is
 * present (`npm run model:fetch` puts it in the shared model cache; CI does); otherwise the
 * test is skipped and says why.
 */
import { statSync } from "node:fs";
import { generateText, stepCountIs, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { tempDir } from "../../test/helpers/temp-store.js";
import { DEFAULT_LOCAL_MODEL } from "../providers/local/catalog.js";
import { candidatePaths } from "../providers/local/model-files.js";
import { closeSpillwayStores } from "./default-store.js";
import { localModel } from "./local-model.js";
import { spillwayPrepareStep } from "./prepare-step.js";
import { spillwayTools } from "./spillway-tools.js";

const modelFile = candidatePaths(DEFAULT_LOCAL_MODEL).find((path) => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
});
if (!modelFile)
  console.log(
    `skipped: the local model ${DEFAULT_LOCAL_MODEL} is not in ${candidatePaths(DEFAULT_LOCAL_MODEL).join(", ")}; ` +
      `run \`npm run model:fetch -- ${DEFAULT_LOCAL_MODEL}\` to run the real-model scenario`,
  );

/** 4,001 lines of ordinary traffic with one error in the middle (about 230 KB). */
function checkoutLog(): string {
  const lines: string[] = [];
  for (let i = 0; i < 4000; i++)
    lines.push(
      `2026-01-15T06:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}Z INFO checkout: GET /api/cart 200 ${(i * 37) % 300}ms`,
    );
  lines.splice(
    2100,
    0,
    "2026-01-15T07:12:44Z ERROR payments: charge failed, card processor returned code E-7734",
  );
  return `${lines.join("\n")}\n`;
}

describe("spillway/ai with the local real model", () => {
  it.skipIf(!modelFile)(
    "Qwen2.5-Coder 1.5B Q4_K_M: gets the handle, searches the stored log, answers the code it read",
    async () => {
      const log = checkoutLog();
      const fetchLogs = tool({
        description: "Fetch today's checkout log (the whole file).",
        inputSchema: z.object({}),
        execute: async () => log,
      });
      const home = await tempDir();
      const tools = spillwayTools(
        { fetch_logs: fetchLogs },
        { store: { home }, tokenBudget: 12_000 },
      );
      try {
        const result = await generateText({
          model: localModel(DEFAULT_LOCAL_MODEL, { contextSize: 8192 }),
          tools,
          temperature: 0,
          stopWhen: stepCountIs(5),
          prepareStep: spillwayPrepareStep({ tools, maxSteps: 5 }),
          // Progress for a slow machine: each step as it ends.
          onStepFinish: (step) =>
            console.log(
              `real model step: ${step.toolCalls.map((c) => `${c.toolName} ${JSON.stringify(c.input)}`).join("; ") || step.text.slice(0, 200)}`,
            ),
          system:
            "You are an on-call engineer. Use the tools. A large tool result is stored and shown as an id: " +
            "search it with get_tool_output (mode grep) and answer only from what you read.",
          prompt:
            "Fetch today's checkout log and find the ERROR line. What error code did the card processor return?",
        });
        const calls = result.steps.flatMap((s) => s.toolCalls.map((c) => c.toolName));
        console.log(
          `real model ${DEFAULT_LOCAL_MODEL}: tool calls ${calls.join(", ")}; answer: ${result.text.trim()}`,
        );
        // The whole log reached the app; the model saw a handle and read the stored output.
        expect(result.steps[0]?.toolResults[0]?.output).toBe(log);
        expect(calls).toContain("get_tool_output");
        expect(result.text).toContain("E-7734");
      } finally {
        await closeSpillwayStores();
      }
    },
    600_000,
  );
});
