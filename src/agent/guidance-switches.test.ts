/**
 * Every guidance behaviour can be switched off by name (`guidance: { <name>: false }`), and
 * switched off it is gone: the sessions below make the move that triggers each behaviour and
 * check that, with its switch off, the runtime neither says nor enforces it (SW-24).
 */
import { describe, expect, it } from "vitest";
import { agentFixture, testServerSpec } from "../../test/helpers/agent-fixture.js";
import { GUIDANCE_SWITCHES, type GuidanceSwitch } from "../config/guidance.js";
import {
  type ChatRequest,
  type Responder,
  textOf,
  toolCall,
  toolMessages,
} from "../testing/index.js";
import { runAgent } from "./run-agent.js";

const idOf = (text: string) => /out_[0-9a-z]{26}/.exec(text)![0];

/** Runs a session over the test server's large log with one switch off (or none). */
async function run(
  respond: Responder,
  off: GuidanceSwitch | undefined,
  options: { maxTurns?: number; prompt?: string } = {},
) {
  const requests: ChatRequest[] = [];
  const fixture = await agentFixture((request, context) => {
    requests.push(request);
    return respond(request, context);
  });
  const agent = await fixture.agent(`guidance-${off ?? "all"}`, {
    mcpServers: { test: testServerSpec() },
    maxTurns: options.maxTurns ?? 6,
    ...(off ? { guidance: { [off]: false } } : {}),
  });
  const result = await runAgent({
    agent,
    prompt: options.prompt ?? "go",
    stores: fixture.stores,
    cwd: fixture.dir,
  });
  return { result, requests };
}

/** The first tool result the model was shown: the handle message of the generated output. */
const handleShown = ({ requests }: { requests: readonly ChatRequest[] }) =>
  toolMessages(requests[1]!)[0]!.text;

const generate = () => toolCall("test__generate_output", { bytes: 40_000, kind: "log" });

const noticeOf = (request: ChatRequest) =>
  request.messages.map(textOf).find((text) => text.startsWith("# System Notice"));

describe("guidance switches", () => {
  it("notice: no per-turn System Notice is sent", async () => {
    const respond: Responder = (_request, context) =>
      context.callIndex === 0 ? generate() : toolCall("agent__final_report", { report: "r" });
    // Two turns: the second is the last, which the notice counts down.
    const on = await run(respond, undefined, { maxTurns: 2 });
    const off = await run(respond, "notice", { maxTurns: 2 });
    expect(on.requests.some((r) => noticeOf(r) !== undefined)).toBe(true);
    expect(off.requests.every((r) => noticeOf(r) === undefined)).toBe(true);
    expect(off.result.status).toBe("completed");
  });

  it("reportGuards: a report stating a value nothing showed is taken at once", async () => {
    const report = "It failed at 08:02:77.";
    const respond: Responder = (_request, context) =>
      context.callIndex === 0 ? generate() : toolCall("agent__final_report", { report });
    expect((await run(respond, undefined)).result.turns).toBe(3);
    const off = await run(respond, "reportGuards");
    expect(off.result).toMatchObject({ status: "completed", report, turns: 2 });
  });

  it("taskSearch: the handle message points to nothing the task names", async () => {
    const respond: Responder = (request, context) =>
      context.callIndex === 0
        ? generate()
        : toolCall("agent__final_report", { report: toolMessages(request)[0]!.text });
    const prompt = "Find the line with ERROR in the log.";
    const on = await run(respond, undefined, { prompt });
    const off = await run(respond, "taskSearch", { prompt });
    expect(on.result.report).not.toBe(off.result.report);
  });

  it("taskRecord: the handle message shows the task's best line without its record", async () => {
    const respond: Responder = (request, context) =>
      context.callIndex === 0
        ? toolCall("test__generate_output", { bytes: 40_000, kind: "json", needle: "ZX-4242" })
        : toolCall("agent__final_report", { report: toolMessages(request)[0]!.text });
    const prompt = "Which record holds ZX-4242?";
    const on = handleShown(await run(respond, undefined, { prompt }));
    const off = handleShown(await run(respond, "taskRecord", { prompt }));
    expect(on).toContain("[record: JSON object, lines ");
    expect(on).toContain("ZX-4242");
    expect(off).toContain("ZX-4242");
    expect(off).not.toContain("[record:");
  });

  it("formLines: a value of the form the task names is found by its shape only with it on", async () => {
    const uuid = "3f2b8c1e-9a7d-4e2f-8b1c-5d6e7f8a9b0c";
    const respond: Responder = (request, context) =>
      context.callIndex === 0
        ? toolCall("test__generate_output", { bytes: 40_000, kind: "log", needle: uuid })
        : toolCall("agent__final_report", { report: toolMessages(request)[0]!.text });
    const prompt = "There is one UUID in the output. Which one?";
    const on = handleShown(await run(respond, undefined, { prompt }));
    const off = handleShown(await run(respond, "formLines", { prompt }));
    expect(on).toContain("Your task names a value by its form (UUID).");
    expect(on).toContain(uuid);
    // The task's words are not the value's: without the form, no line shown holds it.
    expect(off).toContain("[spillway] The output of");
    expect(off).not.toContain(uuid);
    expect(GUIDANCE_SWITCHES).not.toContain("valueKinds");
  });

  it("the final turn's notice says only that the report is due, with no switch", async () => {
    const respond: Responder = (request, context) => {
      if (context.callIndex === 0) return generate();
      if (request.tools?.length === 1) return toolCall("agent__final_report", { report: "r" });
      return toolCall("get_tool_output", {
        id: idOf(toolMessages(request)[0]!.text),
        mode: "grep",
        pattern: "request_id",
        max_matches: 2,
      });
    };
    const prompt = "Which status has request_id in the log?";
    const { requests } = await run(respond, undefined, { maxTurns: 3, prompt });
    const finalNotice = noticeOf(requests.at(-1)!) ?? "";
    expect(finalNotice).toContain("This is your final turn: call agent__final_report now");
    // Neither the task nor a line of the session is repeated, nor the turn and context counts.
    expect(finalNotice).not.toMatch(/request_id|Your task was|This is turn|% full/);
    // The turns before it carried no notice: nothing ran in the background.
    expect(requests.slice(0, -1).map(noticeOf)).toEqual([undefined, undefined]);
    expect(GUIDANCE_SWITCHES).not.toContain("evidenceQuotes");
  });

  it("the handle message says the lines it shows are the output's own, with no switch", async () => {
    const respond: Responder = (_request, context) =>
      context.callIndex === 0 ? generate() : toolCall("agent__final_report", { report: "r" });
    const { requests } = await run(respond, undefined, { maxTurns: 2 });
    const handle = toolMessages(requests[1]!)[0]!.text;
    expect(handle).toContain("the lines below are some of its lines, exactly as they are in it");
    expect(handle).not.toContain("NOT in this message");
    expect(handle.split("\n").filter((l) => /^ {2}\d+\| /.test(l)).length).toBeGreaterThan(0);
    expect(GUIDANCE_SWITCHES).not.toContain("readsOnly");
  });
});
