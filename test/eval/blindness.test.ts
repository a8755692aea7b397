/**
 * The evaluation's agents are blind and its scores come from reports: the agent modules import
 * nothing of the workload, the prompt carries nothing of the task but its question, an agent
 * reports what the shown text says (even a value the task does not expect), and the scorer
 * reads only the report and what was shown.
 */
import { readdir, readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { type Conversation, conversationOf } from "../../eval/agents/conversation.js";
import { extractionModel } from "../../eval/agents/extraction-model.js";
import {
  pagingAgent,
  readGrepAgent,
  shellAgent,
  viewAgent,
} from "../../eval/agents/peer-agents.js";
import { parseQuestion, patternOfForm } from "../../eval/agents/question.js";
import { NOT_FOUND, spillwayAgent } from "../../eval/agents/spillway-agent.js";
import { docIdOf, promptOf } from "../../eval/prepared.js";
import { scoreReport } from "../../eval/score.js";
import { generateWorkload, KINDS } from "../../eval/workload.js";
import { mapSystemPrompt } from "../../src/extraction/prompts.js";

const AGENTS_DIR = resolve(import.meta.dirname, "../../eval/agents");

/** Every module specifier a source file imports (static and dynamic). */
function importsOf(source: string): string[] {
  return [
    ...source.matchAll(/\bfrom\s+["']([^"']+)["']/g),
    ...source.matchAll(/\bimport\s*\(\s*["']([^"']+)["']\s*\)/g),
    ...source.matchAll(/^\s*import\s+["']([^"']+)["']/gm),
  ].map((m) => m[1]!);
}

describe("blind agents", () => {
  it("import nothing but each other and spillway/testing: no task, workload or scorer", async () => {
    const files = (await readdir(AGENTS_DIR)).filter((f) => f.endsWith(".ts"));
    expect(files.length).toBeGreaterThanOrEqual(6);
    for (const file of files) {
      const specifiers = importsOf(await readFile(join(AGENTS_DIR, file), "utf8"));
      for (const specifier of specifiers) {
        const allowed =
          (specifier.startsWith("./") && !specifier.includes("/..")) ||
          specifier === "../../src/testing/index.js";
        expect(allowed, `${file} imports ${specifier}`).toBe(true);
      }
    }
  });

  it("are asked only the question: the prompt names no task id, kind, size, position or answer", () => {
    for (const kind of KINDS) {
      const workload = generateWorkload(kind, "50KB", 7);
      const docId = docIdOf(workload);
      expect(docId).toMatch(/^doc-[0-9a-f]{10}$/);
      for (const task of workload.tasks) {
        const prompt = promptOf(task, docId);
        expect(prompt).toContain(task.question);
        // Around the question (which may say "the log"), nothing of the task.
        const rest = prompt.replace(task.question, "");
        for (const secret of [task.id, task.expected, kind, task.size, task.position])
          expect(rest, task.id).not.toContain(secret);
        expect(task.question).not.toContain(task.expected);
      }
    }
  });

  const prompt =
    'Call data__fetch with output="doc-0123456789". What is the refund reference recorded for event evt_q7k2m9x4z? Answer with the exact value.';
  const conversation = (
    results: { tool: string; result: string; args?: object }[],
  ): Conversation => ({
    system: "",
    prompt,
    tools: [],
    steps: results.map((r) => ({ tool: r.tool, args: { ...(r.args ?? {}) }, result: r.result })),
  });

  it("report what the shown text says, even a value no task expects, and nothing when it is not shown", () => {
    const shown =
      "2026-03-14T08:00:00.000Z WARN [billing] event=evt_q7k2m9x4z refund_ref=ZZZ-424242 msg=ok";
    for (const agent of [
      viewAgent,
      pagingAgent,
      readGrepAgent,
      shellAgent,
      spillwayAgent({ extractFirst: false }),
    ]) {
      expect(agent(conversation([]))).toEqual({
        type: "call",
        tool: "data__fetch",
        args: { output: "doc-0123456789" },
      });
      expect(agent(conversation([{ tool: "data__fetch", result: shown }]))).toEqual({
        type: "report",
        text: "The answer is ZZZ-424242.",
      });
      expect(agent(conversation([{ tool: "data__fetch", result: "no such record here" }]))).toEqual(
        { type: "report", text: NOT_FOUND },
      );
    }
  });

  it("the spillway agent builds its reads from the question and the handle message it was shown", () => {
    const handle = [
      "[spillway] The output of data__fetch is stored whole as out_0123456789abcdefghjkmnpqrs (9 bytes, kind json).",
      "Read it with:",
      '  get_tool_output(id="out_0123456789abcdefghjkmnpqrs", mode="grep", pattern="ERROR", context=2)',
      '  get_tool_output(id="out_0123456789abcdefghjkmnpqrs", mode="json", json_query="$.object")',
      "Shape (JSON outline):",
      "  $: object (2 keys)",
      "    .invoices: array[85] of object",
      "      [*]: object (2 keys)",
      '        .id: string, first value "inv_1"',
    ].join("\n");
    const agent = spillwayAgent({ extractFirst: false });
    const first = agent(conversation([{ tool: "data__fetch", result: handle }]));
    expect(first).toEqual({
      type: "call",
      tool: "get_tool_output",
      args: {
        id: "out_0123456789abcdefghjkmnpqrs",
        mode: "json",
        json_query: '$.invoices[?(@.id=="evt_q7k2m9x4z")]',
      },
    });
    const second = agent(
      conversation([
        { tool: "data__fetch", result: handle },
        {
          tool: "get_tool_output",
          args: (first as { args: object }).args,
          result: "[… 0 matches]",
        },
      ]),
    );
    expect(second).toMatchObject({
      tool: "get_tool_output",
      args: { mode: "grep", pattern: "evt_q7k2m9x4z", context: 3 },
    });
  });

  it("the spillway agent goes on from where a grep its deadline stopped", () => {
    const handle = [
      "[spillway] The output of data__fetch is stored whole as out_0123456789abcdefghjkmnpqrs (9 bytes, kind log).",
      '  get_tool_output(id="out_0123456789abcdefghjkmnpqrs", mode="grep", pattern="ERROR", context=2)',
    ].join("\n");
    const agent = spillwayAgent({ extractFirst: false });
    const grep = {
      id: "out_0123456789abcdefghjkmnpqrs",
      mode: "grep",
      pattern: "evt_q7k2m9x4z",
      context: 3,
    };
    const stopped = (cursor: number, line: number) =>
      `[out_0123456789abcdefghjkmnpqrs grep "evt_q7k2m9x4z": no matching lines before line ${line}, where its deadline stopped the search]\n` +
      `[not searched yet: line ${line} onward; go on: get_tool_output(id="out_0123456789abcdefghjkmnpqrs", mode="grep", pattern="evt_q7k2m9x4z", context=3, cursor=${cursor})]`;
    const first = agent(
      conversation([
        { tool: "data__fetch", result: handle },
        { tool: "get_tool_output", args: grep, result: stopped(4_000_000, 40_001) },
      ]),
    );
    expect(first).toEqual({
      type: "call",
      tool: "get_tool_output",
      args: { ...grep, cursor: 4_000_000 },
    });
    const second = agent(
      conversation([
        { tool: "data__fetch", result: handle },
        { tool: "get_tool_output", args: grep, result: stopped(4_000_000, 40_001) },
        {
          tool: "get_tool_output",
          args: { ...grep, cursor: 4_000_000 },
          result: stopped(8_000_000, 80_001),
        },
      ]),
    );
    expect(second).toEqual({
      type: "call",
      tool: "get_tool_output",
      args: { ...grep, cursor: 8_000_000 },
    });
  });

  it("reads a described form as a regular expression, from the words alone", () => {
    expect(patternOfForm("TXN-, four digits, a dash, four capital letters")).toBe(
      "\\bTXN-\\d{4}-[A-Z]{4}\\b",
    );
    const q = parseQuestion(
      'Which error code was logged just before the service shut down ("shutdown complete") at the end of the log?',
    );
    expect(q).toMatchObject({ phrase: "shutdown complete", before: true, atEnd: true });
    expect(q.attribute).toEqual(["error", "code"]);
  });

  it("the extraction model answers from the chunk it is given, quoting it verbatim", () => {
    const query = "What is the refund reference recorded for event evt_q7k2m9x4z?";
    const chunk = "a line\nts WARN event=evt_q7k2m9x4z refund_ref=ZZZ-424242 msg=ok\nanother line";
    const system = mapSystemPrompt(
      { toolName: "data__fetch", toolArgs: "{}", bytes: 9, lines: 3, tokens: 9 },
      { index: 1, total: 1 },
      10,
      query,
      "abc123",
    );
    const reply = extractionModel({
      model: "m",
      messages: [
        { role: "system", content: system },
        { role: "user", content: `Chunk 1 of 1\n\n${chunk}` },
      ],
    });
    expect(reply?.text).toContain("The answer is ZZZ-424242.");
    expect(reply?.text).toContain("> ts WARN event=evt_q7k2m9x4z refund_ref=ZZZ-424242 msg=ok");
    expect(
      extractionModel({ model: "m", messages: [{ role: "user", content: query }] }),
    ).toBeUndefined();
    expect(
      conversationOf({ model: "m", messages: [{ role: "user", content: prompt }] }).prompt,
    ).toBe(prompt);
  });
});

describe("scoring from the report", () => {
  const task = generateWorkload("log", "50KB", 7).tasks.find((t) => t.position === "middle")!;

  it("is right only when the report names the expected value and no other", () => {
    expect(scoreReport(task, `It is ${task.expected}.`, task.expected).correct).toBe(true);
    expect(scoreReport(task, `It is ${task.expected} or ANS-ZZZZZZ.`, "").correct).toBe(false);
    expect(scoreReport(task, null, task.expected)).toMatchObject({ correct: false, answer: null });
    expect(scoreReport(task, "I could not find it.", "")).toMatchObject({
      correct: false,
      invented: false,
    });
  });

  it("calls a value invented when nothing shown held it", () => {
    const scored = scoreReport(task, "The refund reference is REF-12345.", "no such value shown");
    expect(scored).toMatchObject({ correct: false, invented: true, inventedValues: ["REF-12345"] });
    expect(scoreReport(task, `It is ${task.expected}.`, `... ${task.expected} ...`).invented).toBe(
      false,
    );
    // A small model's favourite: digits it made up.
    expect(scoreReport(task, "The code is 1234567890.", "nothing like it").inventedValues).toEqual([
      "1234567890",
    ]);
  });
});
