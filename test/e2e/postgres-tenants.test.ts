/**
 * Tenants across workers: two `spillway serve` workers (the built CLI) with one tokens file on
 * one real PostgreSQL database. A session alice starts on A is hers on B too (the ownership is
 * in the shared store, not in A's home); bob gets 404 for it on both, exactly as for an unknown
 * id. The scripted model reports at once (it is never shown anything to find).
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Responder, toolCall } from "../../src/testing/index.js";
import { agentFixture } from "../helpers/agent-fixture.js";
import { ensureBuilt } from "../helpers/built-cli.js";
import { startServeWorker } from "../helpers/serve-worker.js";
import { postgresServer } from "../helpers/store-engines.js";
import { tempDir } from "../helpers/temp-store.js";

const reportAtOnce: Responder = () => toolCall("agent__final_report", { report: "nothing to do" });

describe("tenants on two workers sharing PostgreSQL", () => {
  it("a tenant's session is its own on every worker, and another tenant's 404 everywhere", async () => {
    await ensureBuilt();
    const fixture = await agentFixture(reportAtOnce);
    await fixture.agent("quick", { maxTurns: 2 });
    const tokens = join(await tempDir(), "tokens.json");
    await writeFile(
      tokens,
      JSON.stringify({ alice: "alice-token-1234", bob: "bob-token-567890ab" }),
    );
    const store = await (await postgresServer()).createDatabase();
    const args = ["--tokens-file", tokens];
    const a = (await startServeWorker(store, fixture.dir, args)).url;
    const b = (await startServeWorker(store, fixture.dir, args)).url;
    const as = (token: string) => ({ authorization: `Bearer ${token}` });
    const alice = as("alice-token-1234");
    const bob = as("bob-token-567890ab");

    const started = await fetch(`${a}/v1/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json", ...alice },
      body: JSON.stringify({ agent: { path: "quick.md" }, prompt: "go" }),
    });
    expect(started.status).toBe(201);
    const { session } = (await started.json()) as { session: { id: string } };
    for (const worker of [a, b]) {
      expect((await fetch(`${worker}/v1/sessions/${session.id}`, { headers: alice })).status).toBe(
        200,
      );
      const denied = await fetch(`${worker}/v1/sessions/${session.id}`, { headers: bob });
      const unknown = await fetch(`${worker}/v1/sessions/ses_nosuchsession0000000000`, {
        headers: bob,
      });
      expect(denied.status).toBe(404);
      expect(unknown.status).toBe(404);
      const codeOf = async (r: Response) => ((await r.json()) as { code: string }).code;
      expect(await codeOf(denied)).toBe(await codeOf(unknown));
      const listed = (await (await fetch(`${worker}/v1/sessions`, { headers: alice })).json()) as {
        sessions: { id: string }[];
      };
      expect(listed.sessions.map((s) => s.id)).toContain(session.id);
      const bobs = (await (await fetch(`${worker}/v1/sessions`, { headers: bob })).json()) as {
        sessions: { id: string }[];
      };
      expect(bobs.sessions.map((s) => s.id)).not.toContain(session.id);
    }
  });
});
