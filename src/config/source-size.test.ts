import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../test/helpers/temp-store.js";
import { isSpillwayError } from "../core/errors.js";
import { parseAgentFile } from "./agent-file.js";
import { loadConfigFile } from "./config-file.js";

const BIG = "0123456789abcdef".repeat(3_125_000); // 50 MB on one line

async function errorOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

describe("settings sources over 1 MiB are refused before parsing", () => {
  it("a 50 MB config file is CONFIG_INVALID naming its size (not 20 s of parsing)", async () => {
    const dir = await tempDir();
    for (const [name, text] of [
      ["spillway.config.json", JSON.stringify({ defaults: { maxTurns: BIG } })],
      ["spillway.config.yaml", `defaults:\n  maxTurns: ${BIG}\n`],
    ] as const) {
      await writeFile(join(dir, name), text);
      const error = await errorOf(loadConfigFile(join(dir, name)));
      expect(isSpillwayError(error, "CONFIG_INVALID"), String(error)).toBe(true);
      expect(error).toMatchObject({ details: { limit: 1024 * 1024 } });
      expect((error as Error).message).toContain("over the limit");
    }
  });

  it("a 50 MB frontmatter is AGENT_FILE_INVALID; a long system prompt is fine", async () => {
    const dir = await tempDir();
    const error = await errorOf(
      parseAgentFile(`---\ndescription: ${BIG}\n---\nBe brief.`, join(dir, "a.md")),
    );
    expect(isSpillwayError(error, "AGENT_FILE_INVALID"), String(error)).toBe(true);
    expect((error as Error).message).toContain("frontmatter");
    const agent = await parseAgentFile(`---\nmaxTurns: 3\n---\n${BIG}`, join(dir, "b.md"));
    expect(agent.systemPrompt.length).toBe(BIG.length);
  });
});
