import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { INCIDENT } from "../../examples/ai-sdk/log.js";
import {
  finalText,
  findOutputIds,
  type Responder,
  startScriptedModelServer,
  toolCall,
  toolMessages,
} from "../../src/testing/index.js";
import { ensureBuilt } from "../helpers/built-cli.js";
import { onCleanup, tempDir } from "../helpers/temp-store.js";

/**
 * examples/ai-sdk runs as a user runs it (`tsx examples/ai-sdk/app.ts`, importing the built
 * `spillway/ai`), with the scripted OpenAI-compatible server standing in for the user's
 * model through OPENAI_COMPATIBLE_BASE_URL. The scripted model is blind: it fetches the log,
 * greps the handle it is shown for ERROR, reads the line it found and quotes it.
 */

const ROOT = resolve(import.meta.dirname, "../..");

beforeAll(async () => {
  // Built once, under a lock, when a source is newer: a build here while other files run the
  // built CLI would rewrite it under them.
  await ensureBuilt();
}, 120_000);

const engineer: Responder = (request) => {
  const last = toolMessages(request).at(-1);
  if (!last) return toolCall("fetch_logs", { date: "2026-01-15" });
  const [id] = findOutputIds(last.text);
  if (last.toolName === "fetch_logs")
    return toolCall("get_tool_output", { id, mode: "grep", pattern: "ERROR", max_matches: 3 });
  const hit = /^(\d+):\d+: (.*)$/m.exec(last.text);
  return finalText(hit ? `Line ${hit[1]}: ${hit[2]}` : `no ERROR line: ${last.text.slice(0, 300)}`);
};

describe("examples/ai-sdk", () => {
  it("runs: the 30 MB result is stored whole, the model greps the handle and quotes the incident line", async () => {
    const server = await startScriptedModelServer({ respond: engineer });
    onCleanup(() => server.close());
    const home = await tempDir();
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: home,
      SPILLWAY_HOME: home,
      OPENAI_COMPATIBLE_BASE_URL: server.baseURL,
      EXAMPLE_MODEL: server.modelId,
    };
    const { stdout, stderr } = await promisify(execFile)(
      resolve(ROOT, "node_modules/.bin/tsx"),
      ["examples/ai-sdk/app.ts"],
      { cwd: ROOT, env, maxBuffer: 16 * 1024 * 1024 },
    );
    expect(stdout.trim()).toMatch(
      new RegExp(`^Line \\d+: \\S+ ${INCIDENT.replace(/[()]/g, "\\$&")}$`),
    );
    expect(stderr).toContain(`model: ${server.modelId} at ${server.baseURL}`);
    expect(stderr).toContain("tool calls: fetch_logs, get_tool_output (3 steps)");
    expect(stderr).toMatch(/stored whole: out_\w+ from fetch_logs, 31,45\d,\d{3} bytes/);
    const shown = Number(/shown ([\d,]+) characters/.exec(stderr)?.[1]?.replaceAll(",", ""));
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(20_000);
    expect(server.failures).toEqual([]);
  });
});
