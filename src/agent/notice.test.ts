import { describe, expect, it } from "vitest";
import type { AsyncOutputStatus } from "../surfaces/async-texts.js";
import { createSurface } from "../surfaces/index.js";
import { noticeNeeded, renderNotice, type TurnPlan } from "./notice.js";
import type { SessionContext } from "./session-context.js";

const NOW = 1_700_000_010_000;
/** renderNotice reads the clock, the surface and the async settings only. */
const contextWith = (readyMessage: "handle" | "ready-menu") =>
  ({
    clock: () => NOW,
    state: {},
    surface: createSurface("get_tool_output", { synopsisLines: 5, continuationChars: 4000 }),
    settings: {
      async: { enabled: true, timeoutSecs: 5, tokenThreshold: 10_000, maxRunning: 4, readyMessage },
    },
  }) as unknown as SessionContext;
/** The compatibility setting: the compatibility texts word for word. */
const context = contextWith("ready-menu");
/** spillway's default texts. */
const guided = contextWith("handle");

const plan = (over: Partial<TurnPlan> = {}): TurnPlan => ({
  turn: 3,
  maxTurns: 10,
  final: false,
  tools: [],
  canRetrieve: false,
  requireToolCall: false,
  ...over,
});

const output = (over: Partial<AsyncOutputStatus>): AsyncOutputStatus => ({
  id: "out_a",
  toolName: "fetcher",
  status: "running",
  tokens: null,
  startedAt: NOW - 7_200,
  reads: 0,
  error: null,
  ...over,
});

describe("renderNotice: the Async Tool Status section and its options (compatibility texts)", () => {
  it("no async tools: turn, context and the two options, unchanged", () => {
    expect(renderNotice(context, plan(), 45)).toBe(
      [
        "# System Notice",
        "",
        "This is turn 3 of 10.",
        "Your context window is 45% full.",
        "",
        "You now need to decide your next move:",
        "1. Call tools to advance your task",
        "2. Provide your final report/answer with agent__final_report",
      ].join("\n"),
    );
  });

  it("only running tools: Running with seconds, and the option to wait", () => {
    const text = renderNotice(context, plan(), 45, [
      output({}),
      output({ id: "out_b", toolName: "search", startedAt: NOW - 3_100 }),
    ]);
    expect(text).toBe(
      [
        "# System Notice",
        "",
        "This is turn 3 of 10.",
        "Your context window is 45% full.",
        "",
        "## Async Tool Status",
        "",
        "### Running (2)",
        "- fetcher (id: out_a, running 7.2s)",
        "- search (id: out_b, running 3.1s)",
        "",
        "---",
        "",
        "You now need to decide your next move:",
        "1. Call tools to advance your task",
        "2. Wait for running tools using wait_for_tool_output()",
        "3. Provide your final report/answer with agent__final_report",
        "",
        'Use get_tool_output(id, "raw"|"extract"|"slice") to retrieve.',
        "Use wait_for_tool_output() to block until a running tool completes.",
      ].join("\n"),
    );
  });

  it("running and ready: Ready with ~tokens and retrieval counts (a counter, no Examined state), the option to retrieve", () => {
    const text = renderNotice(context, plan({ canRetrieve: true }), 45, [
      output({}),
      output({ id: "out_c", toolName: "jina-reader", status: "ready", tokens: 45_000 }),
      output({ id: "out_d", toolName: "serper", status: "ready", tokens: 12_000, reads: 2 }),
      output({ id: "out_e", toolName: "tiny", status: "ready", tokens: 800, reads: 1 }),
    ]);
    expect(text).toContain(
      [
        "### Running (1)",
        "- fetcher (id: out_a, running 7.2s)",
        "",
        "### Ready (3)",
        "- jina-reader (id: out_c, ~45K tokens, 0 retrievals)",
        "- serper (id: out_d, ~12K tokens, 2 retrievals)",
        "- tiny (id: out_e, ~800 tokens, 1 retrieval)",
        "",
        "---",
        "",
        "You now need to decide your next move:",
        "1. Call tools to advance your task",
        "2. Retrieve/examine async tool outputs using get_tool_output(id, mode) or wait_for_tool_output()",
        "3. Provide your final report/answer with agent__final_report",
        "",
        'Use get_tool_output(id, "raw"|"extract"|"slice") to retrieve.',
        "Use wait_for_tool_output() to block until a running tool completes.",
      ].join("\n"),
    );
    expect(text).not.toContain("Examined");
  });

  it("only settled tools: Ready and Failed, no wait hint", () => {
    const text = renderNotice(context, plan(), 10, [
      output({ status: "ready", tokens: 2_000 }),
      output({
        id: "out_f",
        toolName: "crawler",
        status: "failed",
        error: "aborted: the session ended",
      }),
    ]);
    expect(text).toContain("### Failed (1)\n- crawler (id: out_f, aborted: the session ended)\n");
    expect(text).toContain("2. Retrieve/examine async tool outputs");
    expect(text).not.toContain("Use wait_for_tool_output()");
    expect(text).not.toContain("### Running");
  });

  it("the final turn shows the status and only the final report", () => {
    const text = renderNotice(context, plan({ final: true, turn: 10 }), 80, [output({})]);
    expect(text).toContain("### Running (1)");
    expect(text).toContain("This is your final turn: call agent__final_report now");
    expect(text).not.toContain("You now need to decide");
  });

  it("a long list shows the newest 20 and says how many are left out", () => {
    const many = Array.from({ length: 25 }, (_, i) =>
      output({ id: `out_${i}`, status: "ready", tokens: 20_000 }),
    );
    const text = renderNotice(context, plan(), 50, many);
    expect(text).toContain(
      "### Ready (25)\n- … 5 earlier (ids in their tool results)\n- fetcher (id: out_5,",
    );
    expect(text).toContain("- fetcher (id: out_24,");
    expect(text).not.toContain("(id: out_4,");
  });
});

describe("renderNotice: spillway's options (the default)", () => {
  it("no turn count, no context share, no note: only what the turn needs (SW-26)", () => {
    // The header says whose text this is, so a copy of it is plainly not a tool's result.
    const text = renderNotice(
      guided,
      plan({ canRetrieve: true }),
      45,
      [output({})],
      ["A note."],
      "Your last reply was empty.",
    );
    expect(
      text.startsWith("# System Notice (from spillway, not from a tool)\n\n## Async Tool Status"),
    ).toBe(true);
    expect(text).not.toMatch(/turn 3 of 10|45% full|A note\.|last reply/);
    // The compatibility notice keeps all of them, word for word.
    const compatibility = renderNotice(
      context,
      plan(),
      45,
      [],
      ["A note."],
      "Your last reply was empty.",
    );
    expect(compatibility).toContain(
      "This is turn 3 of 10.\nYour context window is 45% full.\nA note.\nYour last reply was empty.",
    );
  });

  it("only a tool running: the option to wait and the report, no read line", () => {
    const text = renderNotice(guided, plan(), 45, [output({})]);
    expect(text).toContain(
      "Reply with one tool call:\n- wait_for_tool_output() to wait for a running tool\n- agent__final_report",
    );
    expect(text).not.toContain("get_tool_output to read");
  });

  it("an output shown by handle: the read modes by name, raw left out; no compatibility menu", () => {
    const text = renderNotice(guided, plan({ canRetrieve: true }), 45, [
      output({ id: "out_c", status: "ready", tokens: 45_000 }),
    ]);
    expect(text).toContain("### Ready (1)\n- fetcher (id: out_c, ~45K tokens, 0 retrievals)");
    expect(text).toContain(
      '- get_tool_output to read a stored output by its id, in parts: mode="search" (words), "grep" (an exact text)',
    );
    expect(text).not.toContain("raw");
    expect(text).not.toContain("advance your task");
    expect(text).not.toContain("wait_for_tool_output");
  });

  it("an output stored and a tool running: the options to read and to wait, no placeholder", () => {
    const text = renderNotice(guided, plan({ canRetrieve: true }), 45, [output({})]);
    expect(text).toContain("Reply with one tool call:\n- get_tool_output to read");
    expect(text).toContain("- wait_for_tool_output() to wait for a running tool");
    expect(text).not.toContain("the tool your task needs next");
  });

  it("the final turn says only that the report is due: no task restated, no line quoted", () => {
    const withTask = {
      ...guided,
      state: { taskText: "Report the incident id." },
    } as unknown as SessionContext;
    expect(renderNotice(withTask, plan({ final: true, turn: 10 }), 80)).toBe(
      [
        "# System Notice (from spillway, not from a tool)",
        "",
        "This is your final turn: call agent__final_report now with your complete answer.",
      ].join("\n"),
    );
    const reportOnly = plan({ final: true, turn: 4, requiredTool: "agent__final_report" });
    expect(renderNotice(withTask, reportOnly, 80).split("\n").slice(2)).toEqual([
      "This is your final turn: call agent__final_report now with your complete answer.",
      "No other tool is available in this turn.",
    ]);
  });
});

describe("noticeNeeded: when spillway's notice is sent", () => {
  const send = (over: Partial<TurnPlan>, background = false, base = guided) =>
    noticeNeeded(base, plan(over), background);

  it("the final turn and tools in the background; not the turn before the last, not otherwise", () => {
    expect(send({ final: true, turn: 10 })).toBe(true);
    expect(send({}, true)).toBe(true);
    expect(send({ turn: 9 })).toBe(false);
    expect(send({ canRetrieve: true })).toBe(false);
  });

  it("sessions with the compatibility texts every turn; none with the notice switched off", () => {
    expect(send({}, false, context)).toBe(true);
    const off = {
      ...guided,
      settings: { ...guided.settings, guidance: { notice: false } },
    } as unknown as SessionContext;
    expect(send({ final: true, turn: 10 }, true, off)).toBe(false);
  });
});
