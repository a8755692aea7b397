import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runAgent } from "../../src/agent/run-agent.js";
import { testServerSpec } from "../helpers/agent-fixture.js";
import { tempDir } from "../helpers/temp-store.js";

/**
 * Live scenarios: a REAL model (not the scripted one) as the agent. Set SPILLWAY_LIVE_MODEL to
 * a model ref (e.g. openai/gpt-4.1 with OPENAI_API_KEY, or ollama/qwen2.5:7b with Ollama
 * running) and run `npm run test:live`. Without it, every scenario is skipped and says why.
 */
const MODEL = process.env.SPILLWAY_LIVE_MODEL;
const SURFACES = ["get_tool_output", "tool_output", "get_continuation"] as const;

if (!MODEL) {
  console.log(
    "test:live skipped: SPILLWAY_LIVE_MODEL is not set. Set it to a model ref (e.g. openai/gpt-4.1 with OPENAI_API_KEY, " +
      "or ollama/qwen2.5:7b with Ollama running) to run these scenarios against a real model.",
  );
}

describe.skipIf(!MODEL)(
  `live: ${MODEL ?? "(no model)"} finds a needle in a large tool output`,
  () => {
    for (const surface of SURFACES) {
      it(`through the ${surface} surface`, async () => {
        const dir = await tempDir("spillway-live-");
        const needle = "NEEDLE-LIVE-4242";
        const agent = join(dir, "live.md");
        await writeFile(
          agent,
          `---\nmaxTurns: 12\ntoolOutput:\n  surface: ${surface}\nmcpServers:\n  test: ${JSON.stringify(testServerSpec())}\n---\n` +
            "You investigate tool outputs carefully and report exact lines.\n",
        );
        const result = await runAgent({
          agent,
          prompt:
            `Call test__generate_output with bytes=300000, kind="log", needle="${needle}". ` +
            `Then find the line containing ${needle} in its output and report that exact line.`,
          model: MODEL!,
          home: join(dir, "home"),
        });
        console.log(
          `[live ${surface}] status=${result.status} turns=${result.turns} report=${JSON.stringify(result.report?.slice(0, 300))}`,
        );
        expect(result.status).toBe("completed");
        expect(result.report).toContain(needle);
      });
    }
  },
);

describe.skipIf(!MODEL)(
  `live: ${MODEL ?? "(no model)"} extraction strategies (seed 000 Phase 3)`,
  () => {
    const cases = [
      { mode: "auto", needleAt: 0.5 },
      { mode: "full-chunked", needleAt: 0.5 },
      { mode: "read-grep", needleAt: 0.5 },
      // truncate keeps the top and bottom: the needle sits in the last lines.
      { mode: "truncate", needleAt: 0.9999 },
    ] as const;
    for (const { mode, needleAt } of cases) {
      it(`tool_output(mode="${mode}") with a real extraction model`, async () => {
        const dir = await tempDir("spillway-live-");
        const needle = `NEEDLE-LIVE-${mode.toUpperCase()}`;
        const agent = join(dir, "live.md");
        await writeFile(
          agent,
          `---\nmaxTurns: 8\ntoolOutput:\n  surface: tool_output\nmcpServers:\n  test: ${JSON.stringify(testServerSpec())}\n---\n` +
            "You investigate tool outputs carefully and report exact lines.\n",
        );
        const result = await runAgent({
          agent,
          prompt:
            `Call test__generate_output with bytes=200000, kind="log", needle="${needle}", needle_at=${needleAt}. ` +
            `Then call tool_output with its handle, extract="the exact line containing ${needle}", mode="${mode}". ` +
            "Report that exact line.",
          model: MODEL!,
          home: join(dir, "home"),
        });
        console.log(
          `[live tool_output ${mode}] status=${result.status} report=${JSON.stringify(result.report?.slice(0, 300))}`,
        );
        expect(result.status).toBe("completed");
        expect(result.report).toContain(needle);
      });
    }
  },
);
