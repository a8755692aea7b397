/**
 * spillway/ai with a real model: the embedded local model (Qwen2.5-Coder 1.5B Instruct,
 * Q4_K_M, run in-process by node-llama-cpp) in a plain AI SDK generateText loop. Its tool
 * returns a log too large to show; the model must read the handle message, search the stored
 * output with get_tool_output and answer from what it read. Runs when the model file is
 * present (`npm run model:fetch` puts it in the shared model cache); otherwise the test is
 * skipped and says why.
 *
 * Part of `npm run test:live`, not `npm test`: on a 2-core machine one run takes 7 to 10+
 * minutes (three steps, each re-reading a prompt of several thousand tokens), and the model has
 * not passed it on every run measured (docs/local-models.md). It is not a gate: with
 * SPILLWAY_LIVE_GATE_ONLY=1 (what CI runs) it says so and does not run; otherwise it prints
 * whether the model read the stored log and answered, and fails only when the product did not
 * deliver the fetched log whole.
 */
import { statSync } from "node:fs";
import { generateText, stepCountIs, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { closeSpillwayStores } from "../../src/ai/default-store.js";
import { localModel } from "../../src/ai/local-model.js";
import { spillwayPrepareStep } from "../../src/ai/prepare-step.js";
import { spillwayTools } from "../../src/ai/spillway-tools.js";
import { DEFAULT_LOCAL_MODEL } from "../../src/providers/local/catalog.js";
import { candidatePaths } from "../../src/providers/local/model-files.js";
import { tempDir } from "../helpers/temp-store.js";

const modelFile = candidatePaths(DEFAULT_LOCAL_MODEL).find((path) => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
});
const gateOnly = process.env.SPILLWAY_LIVE_GATE_ONLY === "1";
if (gateOnly)
  console.log(
    "test:live: the AI SDK real-model scenario is not a gate (not yet passed on every run measured; docs/local-models.md): not run",
  );
else if (!modelFile)
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
  it.skipIf(!modelFile || gateOnly)(
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
        // The product's part holds whatever the model does: a fetch it made reached the app whole.
        const fetched = result.steps[0]?.toolResults[0];
        if (fetched) expect(fetched.output).toBe(log);
        // The model's part is a finding, not a gate (as the scenarios' pass rates are): printed.
        const passed = calls.includes("get_tool_output") && result.text.includes("E-7734");
        console.log(
          `[live] AI SDK scenario: ${passed ? "pass" : "fail"} (read the stored log: ${calls.includes("get_tool_output")}, answer has the code: ${result.text.includes("E-7734")}); not a gate`,
        );
      } finally {
        await closeSpillwayStores();
      }
    },
    1_800_000,
  );
});
