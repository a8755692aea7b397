/**
 * spillway/ai with ToolLoopAgent, streaming tools (execute yields), the size and time
 * triggers, wait_for_tool_output, the per-step System Notice and abort signals, against the
 * scripted OpenAI-compatible server over HTTP (a blind scripted model: it reads only the
 * requests).
 */
import { generateText, stepCountIs, ToolLoopAgent, tool } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { scriptedAiModel } from "../../test/helpers/scripted-ai-model.js";
import { tempDir } from "../../test/helpers/temp-store.js";
import {
  type ChatRequest,
  finalText,
  findOutputIds,
  lastMessage,
  textOf,
  toolCall,
  toolMessages,
} from "../testing/index.js";
import { spillwayPrepareStep, stepNotice } from "./prepare-step.js";
import { spillwaySessionOf, spillwayTools } from "./spillway-tools.js";
import { isBackgroundOutput } from "./time-trigger.js";

/** The System Notice of a request: its last user message, when it is one. */
function noticeOf(request: ChatRequest): string {
  const last = lastMessage(request);
  return last.role === "user" && textOf(last).startsWith("# System Notice") ? textOf(last) : "";
}

/** A promise and its resolver (a gate the test opens). */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe("ToolLoopAgent, streaming tools and the size trigger", () => {
  it("a tool that yields: progress streams through, the last value is stored whole and announced ready; the notice lists it", async () => {
    const rows = Array.from({ length: 40_000 }, (_, i) => ({
      id: i,
      status: i === 23_456 ? "failed" : "ok",
    }));
    const scan = tool({
      description: "Scan every order; yields progress.",
      inputSchema: z.object({ day: z.string() }),
      async *execute() {
        yield { progress: 0.5 as number, rows: [] as typeof rows };
        yield { progress: 1 as number, rows };
      },
    });
    const { server, model } = await scriptedAiModel((request) => {
      const last = toolMessages(request).at(-1);
      if (!last) return toolCall("scan", { day: "today" });
      const [id] = findOutputIds(last.text);
      if (last.toolName === "scan")
        return toolCall("get_tool_output", {
          id,
          mode: "json",
          json_query: '$.rows[?(@.status=="failed")].id',
        });
      return finalText(`failed order: ${last.text.split("\n")[1] ?? "none"}`);
    });
    const home = await tempDir();
    const tools = spillwayTools({ scan }, { store: { home }, async: { tokenThreshold: 5_000 } });
    const agent = new ToolLoopAgent({
      model,
      tools,
      stopWhen: stepCountIs(5),
      prepareStep: spillwayPrepareStep({ tools }),
    });
    const run = await agent.stream({ prompt: "Which order failed today?" });
    let preliminary = 0;
    let final: unknown;
    for await (const part of run.fullStream)
      if (part.type === "tool-result" && part.toolName === "scan") {
        if (part.preliminary) preliminary++;
        else final = part.output;
      }
    expect(await run.text).toBe("failed order: $['rows'][23456]['id'] = 23456");
    expect(preliminary).toBe(2);
    expect(final).toEqual({ progress: 1, rows });
    const shown = toolMessages(server.requests[1]!).at(-1)!.text;
    expect(shown).toMatch(/^Tool Output ID: out_\w+\nTool: scan\nSize: ~\d+ tokens\n/);
    expect(noticeOf(server.requests[1]!)).toContain("### Ready (1)\n- scan (id: out_");
    // The notice is sent with the step only: it never enters the conversation.
    expect(
      server.requests[2]!.messages.filter((m) => textOf(m).startsWith("# System Notice")),
    ).toHaveLength(1);
  });
});

describe("the time trigger and wait_for_tool_output", () => {
  it("a slow tool goes on in the background: the call answers with its id, the model waits, then reads the stored result", async () => {
    const release = gate();
    const slowReport = tool({
      description: "Build the weekly report (slow).",
      inputSchema: z.object({ week: z.number() }),
      execute: async ({ week }) => {
        await release.opened;
        return `weekly report ${week}\ntotal: 1234 orders\n`;
      },
    });
    const notices: string[] = [];
    const { server, model } = await scriptedAiModel((request, { callIndex }) => {
      notices.push(noticeOf(request));
      const last = toolMessages(request).at(-1);
      if (!last) return toolCall("slow_report", { week: 7 });
      if (last.toolName === "slow_report") {
        release.open();
        return toolCall("wait_for_tool_output", {});
      }
      if (last.toolName === "wait_for_tool_output") {
        const [id] = findOutputIds(last.text);
        return toolCall("get_tool_output", { id, mode: "raw" });
      }
      return finalText(`${callIndex}: ${last.text.split("\n").slice(1).join(" | ")}`);
    });
    const home = await tempDir();
    const tools = spillwayTools(
      { slow_report: slowReport },
      { store: { home }, async: { timeoutSecs: 0.1 }, sessionId: "weekly" },
    );
    const result = await generateText({
      model,
      tools,
      stopWhen: stepCountIs(6),
      prepareStep: spillwayPrepareStep({ tools }),
      prompt: "Get the weekly report.",
    });
    const first = result.steps[0]!.toolResults[0]!;
    expect(isBackgroundOutput(first.output)).toBe(true);
    expect(toolMessages(server.requests[1]!).at(-1)!.text).toMatch(
      /^Tool Output ID: out_\w+\nTool: slow_report\n\nWhen the System Notice shows this tool is ready/,
    );
    expect(notices[1]).toMatch(/### Running \(1\)\n- slow_report \(id: out_\w+, running/);
    // spillway's options by default: the call to make, no compatibility menu to copy.
    expect(notices[1]).toContain("- wait_for_tool_output() to wait for a running tool");
    expect(notices[1]).not.toContain("advance your task");
    expect(toolMessages(server.requests[2]!).at(-1)!.text).toMatch(
      /^Completed tools:\n- slow_report \(id: out_\w+, size: 35B\)$/,
    );
    expect(result.text).toBe("3: weekly report 7 | total: 1234 orders | ");
    const record = await (await spillwaySessionOf(tools)!.store()).get(
      (first.output as { outputId: string }).outputId,
      { sessionId: "weekly" },
    );
    expect(record.status).toBe("ready");
    expect(record.toolArgs).toBe('{"week":7}');
    // compatibilityNotice: the compatibility menu word for word.
    const compatibility = await stepNotice(spillwaySessionOf(tools)!, [], 4, undefined, true);
    expect(compatibility).toContain(
      "You now need to decide your next move:\n1. Call tools to advance your task",
    );
    const ours = await stepNotice(spillwaySessionOf(tools)!, [], 4, undefined);
    expect(ours).not.toContain("advance your task");
  });
});

describe("spillwayPrepareStep: when its notice is sent", () => {
  it("spillway's: only with async outputs or in the last step, with no step count or context share; compatibilityNotice: every step", async () => {
    const lookup = tool({
      description: "Look up an order.",
      inputSchema: z.object({ id: z.number() }),
      execute: async ({ id }) => `order ${id}: shipped`,
    });
    const notices: string[] = [];
    const { model } = await scriptedAiModel((request, { callIndex }) => {
      notices.push(noticeOf(request));
      // Each loop of three steps calls the tool twice, then answers.
      return callIndex % 3 < 2 ? toolCall("lookup", { id: callIndex }) : finalText("shipped");
    });
    const home = await tempDir();
    const tools = spillwayTools({ lookup }, { store: { home }, tokenBudget: 50_000 });
    await generateText({
      model,
      tools,
      stopWhen: stepCountIs(3),
      prepareStep: spillwayPrepareStep({ tools, maxSteps: 3 }),
      prompt: "Is order 1 shipped?",
    });
    // No async output: the first two steps carry nothing; the last says the answer is due.
    expect(notices.slice(0, 2)).toEqual(["", ""]);
    expect(notices[2]).toBe(
      "# System Notice (from spillway, not from a tool)\n\nThis is your final turn: give your complete answer now, without tool calls.",
    );
    const session = spillwaySessionOf(tools)!;
    expect(await stepNotice(session, [], 0, 3)).toBeUndefined();
    const compatibility = await stepNotice(session, [], 0, 3, true);
    expect(compatibility).toMatch(
      /^# System Notice\n\nThis is turn 1 of 3\.\nYour context window is \d+% full\./,
    );
    // The option, and its former name, put that notice on every step of a loop.
    for (const option of [{ compatibilityNotice: true }, { seedTexts: true }]) {
      notices.length = 0;
      await generateText({
        model,
        tools,
        stopWhen: stepCountIs(3),
        prepareStep: spillwayPrepareStep({ tools, maxSteps: 3, ...option }),
        prompt: "Is order 1 shipped?",
      });
      expect(notices[0]).toMatch(/^# System Notice\n\nThis is turn 1 of 3\./);
      expect(notices[1]).toMatch(/^# System Notice\n\nThis is turn 2 of 3\./);
    }
  });
});

describe("abort signals", () => {
  it("without async: the tool gets the loop's abort signal, the run rejects, nothing is stored", async () => {
    const started = gate();
    let sawAbort = false;
    const hang = tool({
      description: "Runs until aborted.",
      inputSchema: z.object({}),
      execute: async (_input, { abortSignal }): Promise<string> => {
        started.open();
        await new Promise<void>((resolve) =>
          abortSignal?.addEventListener("abort", () => resolve()),
        );
        sawAbort = abortSignal?.aborted === true;
        throw abortSignal?.reason ?? new Error("aborted");
      },
    });
    const { model } = await scriptedAiModel(() => toolCall("hang", {}));
    const home = await tempDir();
    const tools = spillwayTools({ hang }, { store: { home }, sessionId: "abort-1" });
    const controller = new AbortController();
    const run = generateText({
      model,
      tools,
      stopWhen: stepCountIs(3),
      prompt: "go",
      abortSignal: controller.signal,
    });
    await started.opened;
    controller.abort(new Error("user pressed stop"));
    await expect(run).rejects.toThrow();
    expect(sawAbort).toBe(true);
    expect(await (await spillwaySessionOf(tools)!.store()).list({ sessionId: "abort-1" })).toEqual(
      [],
    );
  });

  it("with async: a tool in the background is aborted with the loop and recorded as aborted", async () => {
    let sawAbort = false;
    const hang = tool({
      description: "Runs until aborted.",
      inputSchema: z.object({}),
      execute: async (_input, { abortSignal }): Promise<string> => {
        await new Promise<void>((resolve) =>
          abortSignal?.addEventListener("abort", () => resolve()),
        );
        sawAbort = true;
        throw new Error("stopped");
      },
    });
    const waiting = gate();
    const { model } = await scriptedAiModel((request) => {
      const last = toolMessages(request).at(-1);
      if (!last) return toolCall("hang", {});
      waiting.open();
      return toolCall("wait_for_tool_output", {});
    });
    const home = await tempDir();
    const tools = spillwayTools(
      { hang },
      { store: { home }, async: { timeoutSecs: 0.05 }, sessionId: "abort-2" },
    );
    const controller = new AbortController();
    const run = generateText({
      model,
      tools,
      stopWhen: stepCountIs(4),
      prompt: "go",
      abortSignal: controller.signal,
    });
    await waiting.opened;
    controller.abort(new Error("user pressed stop"));
    await expect(run).rejects.toThrow();
    const session = spillwaySessionOf(tools)!;
    const background = await session.background();
    await background.waitForCompleted(new AbortController().signal, 10_000);
    expect(sawAbort).toBe(true);
    const [record] = await (await session.store()).list({ sessionId: "abort-2" });
    expect(record?.status).toBe("failed");
    expect(record?.error).toBe("aborted: user pressed stop");
  });
});
