import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { testServerSpec } from "../../test/helpers/agent-fixture.js";
import { onCleanup, tempDir } from "../../test/helpers/temp-store.js";
import { isSpillwayError } from "../core/errors.js";
import { DEFAULT_LOCAL_MODEL } from "../providers/local/catalog.js";
import { LocalLanguageModel } from "../providers/local/local-language-model.js";
import { disposeLocalRuntimes } from "../providers/local/local-runtime.js";
import { resolveModelFile } from "../providers/local/model-files.js";
import { callModel, type ModelReply, type ModelRequest } from "../providers/model-caller.js";
import type { ModelTarget } from "../providers/models.js";
import { openSqliteStores } from "../store/sqlite-history-store.js";
import type { AgentEvent } from "./events.js";
import { runAgent } from "./run-agent.js";
import { sessionCounters } from "./session-counters.js";

/**
 * A REAL model through a compaction: the local test model (Qwen2.5-Coder 1.5B Instruct,
 * Q4_K_M, through node-llama-cpp; `npm run model:fetch` assembles it) is both the agent and
 * the summarizer. A user sends it maintenance notes, one message at a time (a session resumed
 * with a new prompt each time, as a chat would), each holding a code; the window is small
 * enough that the first notes are compacted away; then the user asks for the first code.
 * Asserted: the real model wrote the summary, the summary kept the code the agent needs, the
 * session completed with every call answered. Whether the agent then answers right is printed,
 * not asserted: the 1.5B model replies "ok" to the question with or without compaction
 * (docs/agent-runtime.md), so a control run without compaction could not fail the test and
 * was dropped. Skipped, with the reason printed, when the model file is not on this machine.
 */

function modelAbsent(): string | undefined {
  try {
    resolveModelFile(DEFAULT_LOCAL_MODEL);
    return undefined;
  } catch (error) {
    if (!isSpillwayError(error)) throw error;
    return `${DEFAULT_LOCAL_MODEL} is not on this machine (run \`npm run model:fetch\`)`;
  }
}

const absent = modelAbsent();
if (absent) console.log(`compaction with the local model skipped: ${absent}`);

afterAll(() => disposeLocalRuntimes());

/**
 * The real model through the real provider and model caller, on one thread: on a busy shared
 * machine llama.cpp's default threads spin against each other (a 30-token call took 405 s
 * with the default, 28 s with one thread, measured here).
 */
const oneThread = (targets: readonly ModelTarget[], request: ModelRequest): Promise<ModelReply> =>
  callModel(targets, request, {
    retry: { attempts: 1, backoffMs: 0 },
    createModel: (target) =>
      new LocalLanguageModel(target.model, { contextSize: target.contextWindow, threads: 1 }),
  });

/** A maintenance note of about 250 tokens that carries one code. */
function note(n: number, place: string, code: string): string {
  return [
    `Maintenance note ${n}. Keep the code in it; I will ask for it later. Reply ok.`,
    `The crew inspected the ${place} on the north side of the building this morning. The hinges were`,
    "oiled, the seals replaced where they had cracked, and the frame checked for rust, of which there",
    "was a little near the bottom edge; it was brushed off and painted. The light above it flickered",
    "and the bulb was changed. Nobody reported problems with access during the week, although the",
    "cleaning team said the keypad was slow to respond on Tuesday evening. The keypad battery was",
    `tested and is at 80 percent. The ${place} code is ${code}. The next inspection is due in six`,
    "weeks; the crew asks that any damage be reported at the front desk before then, with a photo if",
    "possible, and that nobody props the door open with the fire extinguisher again.",
  ].join("\n");
}

const NOTES = [note(1, "vault", "4821"), note(2, "storeroom", "9174"), note(3, "gate", "3310")];

const QUESTION = "What is the vault code? Call agent__final_report with the code as the report.";

interface Conversation {
  readonly sessionId: string;
  readonly answer: string | null;
  readonly status: string;
  readonly events: readonly AgentEvent[];
}

/** The notes, one message (and run) at a time, then the question; `compaction` as frontmatter. */
async function converse(
  stores: Awaited<ReturnType<typeof openSqliteStores>>,
  dir: string,
  label: string,
  compaction: string,
): Promise<Conversation> {
  const agent = join(dir, `${label}.md`);
  await writeFile(
    agent,
    `---\n${[
      `models: ["local/${DEFAULT_LOCAL_MODEL}"]`,
      `mcpServers: { test: ${JSON.stringify({ ...testServerSpec(), tools: ["echo"] })} }`,
      "maxTurns: 40",
      "contextWindow: 3072",
      "maxOutputTokens: 256",
      // A chat agent: its text replies are its answers. The local default (none) requires a tool
      // call in every turn, and confirm requires one after each text reply; under either the model
      // called echo until its turns ran out.
      "textReplies: final",
      `compaction: ${compaction}`,
    ].join("\n")}\n---\n` +
      "You keep the codes in the user's maintenance notes. Answer each message with one short sentence, without calling tools.\n",
  );
  const events: AgentEvent[] = [];
  const run = async (prompt: string, resume?: string) => {
    const result = await runAgent({
      agent,
      prompt,
      stores,
      cwd: dir,
      callModel: oneThread,
      ...(resume ? { resume } : {}),
      onEvent: (event) => {
        events.push(event);
        if (event.type === "compaction")
          console.log(`[local compaction] ${JSON.stringify(event).slice(0, 400)}`);
      },
    });
    console.log(
      `[local compaction, ${label}] ${JSON.stringify(prompt.slice(0, 60))} → ${result.status}: ${JSON.stringify(result.report)}`,
    );
    return result;
  };
  const first = await run(
    "I will send you maintenance notes, one message at a time. Reply ok to each.",
  );
  for (const text of NOTES) await run(text, first.sessionId);
  const last = await run(QUESTION, first.sessionId);
  return { sessionId: first.sessionId, answer: last.report, status: last.status, events };
}

describe.skipIf(absent !== undefined)(
  `compaction with a real model (local/${DEFAULT_LOCAL_MODEL})`,
  () => {
    it("summarizes with the real model and keeps what the agent needs", {
      timeout: 2_400_000,
    }, async () => {
      const dir = await tempDir("spillway-local-compaction-");
      const stores = await openSqliteStores({ home: join(dir, "home") });
      onCleanup(() => stores.close());
      const started = performance.now();
      // Low thresholds, so a few notes reach them (the tool schemas count too).
      const compacted = await converse(
        stores,
        dir,
        "compacted",
        "{ warn: 0.3, compact: 0.35, hard: 0.95, summaryMaxTokens: 200 }",
      );
      const summaries = await stores.history.summaries(compacted.sessionId);
      console.log(
        `[local compaction] ${((performance.now() - started) / 1000).toFixed(0)} s; ` +
          `answer after compaction ${JSON.stringify(compacted.answer)}; ` +
          `summary ${JSON.stringify(summaries.at(-1)?.summary ?? null)}`,
      );
      // The real model wrote the summary (no fallback), and it covers the first note.
      const done = compacted.events.filter((e) => e.type === "compaction");
      expect(done.length).toBeGreaterThanOrEqual(1);
      expect(done.every((e) => e.type === "compaction" && e.status === "compacted")).toBe(true);
      expect(summaries.at(-1)!.model).toBe(`local/${DEFAULT_LOCAL_MODEL}`);
      const messages = await stores.history.messages(compacted.sessionId);
      const vault = messages.find(
        (m) => m.role === "user" && JSON.stringify(m.parts).includes("4821"),
      )!;
      expect(summaries.at(-1)!.throughSeq).toBeGreaterThanOrEqual(vault.seq);
      // What the agent needs to carry on survived: the code is in the summary it is sent.
      expect(summaries.at(-1)!.text).toContain("4821");
      expect(compacted.status).toBe("completed");
      const counters = await sessionCounters(stores.history, compacted.sessionId);
      expect(counters).toMatchObject({ missingToolResults: 0, truncatedCanonicalWrites: 0 });
    });
  },
);
