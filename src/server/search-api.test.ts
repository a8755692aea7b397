/**
 * Search over HTTP, through a real `spillway serve`: one output by words
 * (`/v1/outputs/:id/content?mode=search`) and a whole session (`/v1/sessions/:id/search`),
 * tenants kept apart exactly as for the other reads.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { serverFixture } from "../../test/helpers/server-fixture.js";
import { tempDir } from "../../test/helpers/temp-store.js";

const idle = () => ({ text: "unused" });

interface Match {
  outputId: string;
  line: number;
  text: string;
  score: number;
  terms: string[];
  provenance: { charStart: number; charEnd: number; sha256: string; lineStart: number };
}

describe("search over HTTP", () => {
  it("searches one output by words and a whole session, with provenance", async () => {
    const f = await serverFixture(idle);
    const put = async (tool: string, text: string) => {
      const res = await fetch(`${f.http.url}/v1/outputs?session=build-9&tool=${tool}`, {
        method: "POST",
        // A write carries a non-simple content type (a page of another site cannot send one).
        headers: { "content-type": "application/octet-stream" },
        body: text,
      });
      return ((await res.json()) as { output: { id: string; sha256: string } }).output;
    };
    const lines = Array.from({ length: 3000 }, (_, i) => `row ${i + 1} status ok`);
    lines[2100] = "row 2101 kernel BOOT-MARKER-ALPHA=7f3a9c";
    const text = `${lines.join("\n")}\n`;
    const log = await put("fs__read_file", text);
    const notes = await put("notes", "サーバーの起動マーカーはBOOT-7です。\n");

    const one = (await (
      await f.get(`/v1/outputs/${log.id}/content?mode=search&query=boot%20marker&maxResults=3`)
    ).json()) as { mode: string; matches: Match[]; terms: { term: string; lines: number }[] };
    expect(one.mode).toBe("search");
    expect(one.matches).toHaveLength(1);
    const [match] = one.matches;
    expect(match).toMatchObject({ outputId: log.id, line: 2101, terms: ["boot", "marker"] });
    expect(text.slice(match!.provenance.charStart, match!.provenance.charEnd)).toBe(match!.text);
    expect(match!.provenance.sha256).toBe(log.sha256);

    const session = (await (
      await f.get(`/v1/sessions/build-9/search?query=${encodeURIComponent("起動マーカー boot")}`)
    ).json()) as { sessionId: string; matches: Match[]; outputsSearched: number };
    expect(session).toMatchObject({ sessionId: "build-9", outputsSearched: 2 });
    expect(session.matches.map((m) => m.outputId)).toEqual([notes.id, log.id]);

    // Every row holds "status ok": coverage keeps the output's order, from its end on request.
    const ranked = async (path: string) =>
      ((await (await f.get(path)).json()) as { ranking: string; matches: Match[] }).matches.map(
        (m) => m.line,
      );
    expect(
      await ranked(
        `/v1/outputs/${log.id}/content?mode=search&query=status&maxResults=2&ranking=coverage`,
      ),
    ).toEqual([1, 2]);
    expect(
      await ranked(
        `/v1/sessions/build-9/search?query=status&maxResults=2&ranking=coverage&latestFirst=true`,
      ),
    ).toEqual([3000, 2999]);
    const unknown = await f.get(`/v1/outputs/${log.id}/content?mode=search&query=x&ranking=tfidf`);
    expect(unknown.status).toBe(400);

    const missing = await f.get(`/v1/outputs/${log.id}/content?mode=search`);
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ code: "INVALID_ARGUMENT" });
    const common = await f.get("/v1/sessions/build-9/search?query=what%20is%20the");
    expect(common.status).toBe(400);
    expect(((await common.json()) as { message: string }).message).toContain("query");
    const stray = await f.get(`/v1/outputs/${log.id}/content?mode=search&query=x&pattern=y`);
    expect(stray.status).toBe(400);
  });

  it("keeps tenants apart: another tenant's session searches like one without outputs", async () => {
    const dir = await tempDir();
    const tokens = join(dir, "tokens.json");
    await writeFile(
      tokens,
      JSON.stringify({ alice: "alice-token-0123456789", bob: "bob-token-0123456789" }),
    );
    const f = await serverFixture(idle, { tokensFile: tokens });
    const alice = { authorization: "Bearer alice-token-0123456789" };
    const bob = { authorization: "Bearer bob-token-0123456789" };
    const secret = (await (
      await fetch(`${f.http.url}/v1/outputs?session=shared&tool=t`, {
        method: "POST",
        body: "alice's boot marker secret\n",
        headers: alice,
      })
    ).json()) as { output: { id: string } };
    const own = (await (await f.get("/v1/sessions/shared/search?query=boot", alice)).json()) as {
      matches: Match[];
    };
    expect(own.matches.map((m) => m.outputId)).toEqual([secret.output.id]);
    const theirs = await (await f.get("/v1/sessions/shared/search?query=boot", bob)).json();
    const nobody = await (await f.get("/v1/sessions/never-used/search?query=boot", bob)).json();
    expect(theirs).toMatchObject({ matches: [], outputsSearched: 0, matchingLines: 0 });
    expect({ ...(theirs as object), sessionId: "x" }).toEqual({
      ...(nobody as object),
      sessionId: "x",
    });
    const direct = await f.get(
      `/v1/outputs/${secret.output.id}/content?mode=search&query=boot`,
      bob,
    );
    expect(direct.status).toBe(404);
  });
});
