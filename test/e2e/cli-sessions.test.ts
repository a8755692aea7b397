/**
 * End-to-end tests of `spillway sessions list|show`: sessions are made by the BUILT binary
 * (`spillway run` against the scripted model server and the test MCP server), then inspected.
 */

import { beforeAll, describe, expect, it } from "vitest";
import {
  finalText,
  findOutputIds,
  type Responder,
  toolCall,
  toolMessages,
} from "../../src/testing/index.js";
import { agentFixture, testServerSpec } from "../helpers/agent-fixture.js";
import { type CliRun, ensureBuilt, runCli } from "../helpers/built-cli.js";
import { turnOf } from "../helpers/compaction-policy.js";

const NEEDLE = "NEEDLE-sessions-e2e-7f3c";

beforeAll(ensureBuilt, 120_000);

type Run = CliRun;
const cli = runCli;

async function ok(args: readonly string[], at: { cwd: string; home: string }): Promise<Run> {
  const run = await cli(args, at);
  expect(run.code, run.stderr).toBe(0);
  return run;
}

/**
 * The parent generates a large log, greps its handle, asks the helper sub-agent to confirm,
 * and reports; the helper (its system prompt says "helper") answers in plain text.
 */
const policy: Responder = (request) => {
  const system = request.messages.find((m) => m.role === "system");
  if (JSON.stringify(system?.content ?? "").includes("You are the helper")) {
    return finalText("helper confirms the disk error");
  }
  const last = toolMessages(request).at(-1);
  if (!last) {
    return toolCall("test__generate_output", {
      bytes: 2_000_000,
      kind: "log",
      needle: NEEDLE,
      needle_at: 0.5,
    });
  }
  if (last.toolName === "test__generate_output") {
    const [id] = findOutputIds(last.text);
    return toolCall("get_tool_output", { id, mode: "grep", pattern: NEEDLE });
  }
  if (last.toolName === "get_tool_output")
    return toolCall("agent__helper", { task: "Confirm the disk error." });
  return toolCall("agent__final_report", { report: `Disk error found; ${last.text}` });
};

async function setup() {
  const fixture = await agentFixture(policy);
  const helper = await fixture.agent(
    "helper",
    { description: "confirms findings" },
    "You are the helper.",
  );
  const agent = await fixture.agent("triage", {
    mcpServers: { test: testServerSpec() },
    agents: [helper],
    maxTurns: 8,
    // This file shows the handle message; async outputs in `sessions show` are tested in
    // async-tools.e2e.test.ts.
    async: false,
  });
  const at = { cwd: fixture.dir, home: fixture.home };
  const run = await ok(["run", agent, "Find the disk error and have it confirmed."], at);
  expect(run.stdout).toBe("Disk error found; helper confirms the disk error\n");
  const [session] = await fixture.stores.history.listSessions({ parentSessionId: null });
  const [child] = await fixture.stores.history.listSessions({ parentSessionId: session!.id });
  // Sub-agent progress is indented and prefixed with the sub-agent's session id.
  expect(run.stderr).toContain(`\n  [${child!.id}] sub-agent helper started · `);
  expect(run.stderr).toContain(`\n  [${child!.id}] [turn 1/20] model `);
  expect(run.stderr).toContain(`\n  [${child!.id}] sub-agent helper completed\n`);
  return { fixture, at, session: session!, child: child! };
}

describe("spillway sessions", () => {
  it("lists top-level sessions by default, sub-agent sessions with --all, and pages", async () => {
    const { at, session, child } = await setup();
    const list = await ok(["sessions", "list"], at);
    const [header, row, ...rest] = list.stdout.trimEnd().split("\n");
    expect(header).toMatch(
      /^ID +AGENT +STATUS +TURNS +CREATED +CALLS +TOKENS IN\/OUT +COST +PROMPT$/,
    );
    expect(row).toMatch(
      new RegExp(
        `^${session.id} +triage +completed +4 +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d +5 +[\\d.]+k?/[\\d.]+k? +\\? +Find the disk error and have it confirmed\\.$`,
      ),
    );
    expect(rest).toEqual([]);
    expect(list.stderr).toContain("# cost ?: some model of the session has no pricing configured");

    const all = await ok(["sessions", "list", "--all"], at);
    expect(all.stdout.split("\n")[0]).toMatch(/^ID +PARENT +AGENT /);
    expect(all.stdout).toMatch(
      new RegExp(`^${child.id} +${session.id} +helper +completed +1 `, "m"),
    );

    const paged = JSON.parse(
      (await ok(["sessions", "list", "--all", "--limit", "1", "--offset", "1", "--json"], at))
        .stdout,
    );
    expect(paged.map((s: { id: string }) => s.id)).toEqual([session.id]);
    const bad = await cli(["sessions", "list", "--limit", "0"], at);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("error USAGE: option '--limit <n>' argument '0' is invalid");
  });

  it("shows the history as the model saw it: the handle message, the reads, the sub-agent link", async () => {
    const { fixture, at, session, child } = await setup();
    const show = await ok(["sessions", "show", session.id], at);
    const out = show.stdout;
    const [outputId] = findOutputIds(out);
    expect(outputId).toBeDefined();
    expect(out).toMatch(new RegExp(`^session +${session.id}$`, "m"));
    expect(out).toMatch(/^status +completed$/m);
    expect(out).toMatch(
      new RegExp(`^sub-agents +${child.id} helper completed \\(tool call call_`, "m"),
    );
    // The user prompt, the tool call with its arguments, then the result's projection.
    expect(out).toContain("── turn 0 · user\n  Find the disk error and have it confirmed.\n");
    expect(out).toContain(
      `→ test__generate_output {"bytes":2000000,"kind":"log","needle":"${NEEDLE}","needle_at":0.5}`,
    );
    expect(out).toMatch(
      new RegExp(
        `result of test__generate_output \\[call_\\w+ · ok · [^\\]]+\\] \\[${outputId} · 2\\.0 MB · [\\d,]+ lines · shown as handle\\]`,
      ),
    );
    // Exactly what the model was sent in place of the output.
    const sent = toolMessages(fixture.server.requests[1]!)[0]!.text;
    expect(sent).toMatch(
      /^\[spillway\] The output of test__generate_output is stored whole as out_/,
    );
    for (const line of sent.split("\n").filter((l) => l.trim() !== ""))
      expect(out).toContain(`  ${line}`);
    expect(out).toMatch(
      new RegExp(
        `result of get_tool_output \\[call_\\w+ · ok · [^\\]]+\\] \\[read of ${outputId}\\]`,
      ),
    );
    expect(out).toMatch(new RegExp(`^ +\\d+:1: ${NEEDLE}$`, "m"));
    expect(out).toMatch(
      new RegExp(
        `→ agent__helper \\{"task":"Confirm the disk error."\\}  \\[call_\\w+\\]  → sub-agent session ${child.id}`,
      ),
    );
    expect(out).toContain("final report:\n  Disk error found; helper confirms the disk error\n");

    const childShow = await ok(["sessions", "show", child.id], at);
    expect(childShow.stdout).toMatch(
      new RegExp(`^parent +${session.id} \\(tool call call_\\w+\\)$`, "m"),
    );
    expect(childShow.stdout).toContain("── turn 1 · assistant\n  helper confirms the disk error\n");
  });

  it("show --json has the record, messages and tool calls; an unknown id exits 1", async () => {
    const { at, session, child } = await setup();
    const doc = JSON.parse((await ok(["sessions", "show", session.id, "--json"], at)).stdout);
    expect(doc.session).toMatchObject({
      id: session.id,
      status: "completed",
      parentSessionId: null,
    });
    expect(doc.messages[0]).toMatchObject({
      role: "user",
      parts: [{ type: "text", text: "Find the disk error and have it confirmed." }],
    });
    expect(doc.toolCalls.map((c: { toolName: string }) => c.toolName)).toEqual([
      "test__generate_output",
      "get_tool_output",
      "agent__helper",
      "agent__final_report",
    ]);
    const handleResult = doc.messages
      .flatMap(
        (m: { parts: { type: string; result?: { kind: string; shown?: string } }[] }) => m.parts,
      )
      .find(
        (p: { type: string; result?: { kind: string } }) =>
          p.type === "tool-result" && p.result?.kind === "output",
      );
    expect(handleResult.result.shown).toBe("handle");
    expect(doc.subSessions).toEqual([child.id]);

    const missing = await cli(["sessions", "show", "ses_nothere"], at);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      'error SESSION_NOT_FOUND: No session "ses_nothere" in this store. Run "spillway sessions list" to see session ids.\n',
    );
  });
});

describe("spillway run and sessions show: compaction", () => {
  it("takes the compaction flags, prints each compaction, and shows counters, context use and summaries", async () => {
    // Blind filler agent: a mid-size output each turn; reports once its summary is the second.
    const filler: Responder = (request) => {
      const first = request.messages[0];
      if (JSON.stringify(first?.content ?? "").includes("You compact the earlier part"))
        return finalText("Scripted summary: outputs were generated.");
      const notice = JSON.stringify(request.messages.at(-1)?.content ?? "");
      const summary = request.messages.some((m) =>
        JSON.stringify(m.content ?? "").includes("compaction 2 of this session"),
      );
      if (summary || /This is your final turn/.test(notice))
        return toolCall("agent__final_report", { report: "done" });
      // A different output each turn (the notice names the turn only when it is sent).
      const turn = turnOf(request);
      return toolCall("test__generate_output", { bytes: 3_000, kind: "log", seed: turn });
    };
    const fixture = await agentFixture(filler);
    const agent = await fixture.agent("long", {
      mcpServers: { test: testServerSpec() },
      maxTurns: 30,
      compaction: { warn: 0.5 },
    });
    const at = { cwd: fixture.dir, home: fixture.home };
    const run = await ok(
      [
        "run",
        agent,
        "Generate outputs.",
        "--context-window",
        "8192",
        "--max-output-tokens",
        "1024",
        "--compaction-at",
        "0.7",
        "--summary-max-tokens",
        "300",
      ],
      at,
    );
    expect(run.stdout).toBe("done\n");
    expect(run.stderr).toMatch(
      /\[turn \d+\/30\] compacted turns? 1(-\d+)? into summary 1 by openai-compatible\/scripted\/scripted-policy: [\d.]+k? → [\d.]+k? tokens · \d+ calls? indexed/,
    );
    const [session] = await fixture.stores.history.listSessions({ parentSessionId: null });
    const show = (await ok(["sessions", "show", session!.id], at)).stdout;
    expect(show).toMatch(
      /^invariants +canonical writes with a truncation marker 0 · tool results missing 0 \(target 0: ok\)$/m,
    );
    expect(show).toMatch(
      /^long session +2 compactions \(0 failed\) · [\d,]+ tokens saved · 0 refetches of \d+ tool calls$/m,
    );
    expect(show).toMatch(
      /^context +[\d,]+ of 5,513 tokens at turn \d+ \(\d+%, (ok|warn)\) · warn 50% · compact 70% · hard 95% of the 8,192-token window less 1,024 for the reply, over a 1.3x tokenizer margin$/m,
    );
    expect(show).toMatch(
      /^compactions +#1 turns? 1(-\d+)? \(messages 2-\d+\) · [\d,]+ → [\d,]+ tokens · \d+ calls? · index out_\w+ · by openai-compatible/m,
    );
    expect(show).toMatch(/^ +#2 turns? \d+(-\d+)? /m);
    // In the history: each summary after the last message it covers, as the model is sent it.
    expect(show).toMatch(
      /^── compaction 1 · turns? 1(-\d+)? \(messages 2-\d+\) · [\d,]+ → [\d,]+ tokens · a record of its own; the messages above are unchanged\. The model is sent, in their place:\n {2}\[spillway\] Summary of earlier work \(turns? 1(-\d+)?; compaction 1 of this session\)/m,
    );
    expect(show).toMatch(/^store total +1 session: canonical writes with a truncation marker 0 /m);
    const doc = JSON.parse((await ok(["sessions", "show", session!.id, "--json"], at)).stdout);
    expect(doc.health.counters).toMatchObject({
      compactions: 2,
      missingToolResults: 0,
      truncatedCanonicalWrites: 0,
    });
    expect(doc.health.context).toMatchObject({
      inputWindow: 5513, // (8,192 - 1,024) / 1.3 tokenizer margin
      thresholds: { warn: 0.5, compact: 0.7, hard: 0.95 },
    });
    expect(doc.storeCounters.sessions).toBe(1);

    const bad = await cli(["run", agent, "x", "--compaction-at", "1.5"], at);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--compaction-at <fraction>");
  });
});
