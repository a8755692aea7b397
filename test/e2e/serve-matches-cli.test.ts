/**
 * Continuation over HTTP: a session on the get_continuation surface started over HTTP behaves
 * exactly as the same agent run by the CLI (`spillway run`, the built binary): the model is
 * sent the same tool results, markers included, turn for turn.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import {
  type ChatRequest,
  type Responder,
  readSse,
  toolCall,
  toolMessages,
} from "../../src/testing/index.js";
import { testServerSpec } from "../helpers/agent-fixture.js";
import { continuationCallOf } from "../helpers/continuation-call.js";
import { serverFixture } from "../helpers/server-fixture.js";

const BIN = join(import.meta.dirname, "../../dist/cli/main.js");

/** Reads on by the marker's numbers until no marker is left (blind: only what it was shown). */
const continuationReader: Responder = (request) => {
  const results = toolMessages(request);
  const last = results.at(-1);
  if (!last)
    return toolCall(
      "test__generate_output",
      { bytes: 9_500, kind: "text", seed: 7 },
      "call_abc123",
    );
  const next = continuationCallOf(last.text);
  if (next) return next;
  return toolCall("agent__final_report", { report: `read ${results.length - 1} continuation(s)` });
};

const shownToModel = (requests: readonly ChatRequest[]) =>
  requests.map((r) => ({
    tools: (r.tools ?? []).map((t) => t.function.name),
    results: toolMessages(r).map((m) => m.text),
  }));

describe("the continuation surface over HTTP", () => {
  it("get_continuation sessions behave exactly as from the CLI", async () => {
    const f = await serverFixture(continuationReader);
    await f.agent("continuation", {
      mcpServers: { test: testServerSpec() },
      toolOutput: { surface: "get_continuation" },
    });

    await promisify(execFile)(
      process.execPath,
      [BIN, "--home", join(f.dir, "cli-home"), "run", "continuation.md", "go"],
      {
        cwd: f.dir,
        env: { ...process.env, NO_COLOR: "1" },
      },
    );
    const cli = shownToModel(f.server.requests);
    const before = f.server.requests.length;

    const { session } = (await (
      await f.post("/v1/sessions", { agent: { path: "continuation.md" }, prompt: "go" })
    ).json()) as {
      session: { id: string };
    };
    const events = await readSse(`${f.http.url}/v1/sessions/${session.id}/events`, {
      until: (e) => e.event === "final",
    });
    expect(JSON.parse(events.at(-1)!.data)).toMatchObject({
      status: "completed",
      report: "read 2 continuation(s)",
    });
    const http = shownToModel(f.server.requests.slice(before));

    expect(http).toEqual(cli);
    expect(http).toHaveLength(4);
    expect(http[1]!.results[0]).toMatch(
      /\n\[truncated — showing 4000\/9500 chars\. Call get_continuation with tool_call_id="call_abc123" to read more\]$/,
    );
    // The same reads over the continuation endpoint answer the same texts.
    const first = (await (
      await f.get(`/v1/sessions/${session.id}/continuation?tool_call_id=call_abc123&offset=4000`)
    ).json()) as { text: string };
    expect(first.text).toBe(http[2]!.results[1]);
  });
});
