/**
 * spillway/ai: what is stored and shown for every kind of result (bytes, MCP content, a
 * result over the token budget, a custom handle message), UI messages converted in a later
 * request, extraction with an AI SDK model (the read-grep agent on the AI SDK loop), and
 * option errors. Real AI SDK, scripted OpenAI-compatible server over HTTP, blind policies.
 */
import { convertToModelMessages, generateText, stepCountIs, tool, type UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { scriptedAiModel } from "../../test/helpers/scripted-ai-model.js";
import { tempDir } from "../../test/helpers/temp-store.js";
import { isSpillwayError } from "../core/errors.js";
import {
  extractionCall,
  extractionReport,
  finalText,
  findOutputIds,
  generateOutputText,
  lastMessage,
  type Responder,
  textOf,
  toolCall,
  toolMessages,
} from "../testing/index.js";
import { spillwaySessionOf, spillwayTools } from "./spillway-tools.js";

/** Calls `name` once, then answers with the tool result it was shown. */
function callThenEcho(name: string, args: Record<string, unknown> = {}): Responder {
  return (request) => {
    const last = lastMessage(request);
    return last.role === "tool" ? finalText(textOf(last)) : toolCall(name, args);
  };
}

describe("what is stored and shown", () => {
  it("bytes are stored as a binary output and shown by handle", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const { model } = await scriptedAiModel(callThenEcho("screenshot"));
    const home = await tempDir();
    const tools = spillwayTools(
      {
        screenshot: tool({ description: "", inputSchema: z.object({}), execute: async () => png }),
      },
      { store: { home }, sessionId: "bin" },
    );
    const { text } = await generateText({ model, tools, stopWhen: stepCountIs(3), prompt: "shot" });
    expect(text).toContain("(7 bytes of binary application/octet-stream)");
    expect(text).toContain('mode="slice", slice={"start": 0, "length": 3000})   bytes as base64');
    const [record] = await (await spillwaySessionOf(tools)!.store()).list({ sessionId: "bin" });
    expect(record).toMatchObject({ kind: "binary", byteSize: 7 });
  });

  it("an MCP result: its text is the output, each image an attachment; the model sees the text and the attachment's id", async () => {
    const mcp = {
      content: [
        { type: "text", text: "rendered the chart" },
        { type: "image", data: Buffer.from("fake-png").toString("base64"), mimeType: "image/png" },
      ],
      isError: false,
    };
    const { model } = await scriptedAiModel(callThenEcho("chart"));
    const home = await tempDir();
    const tools = spillwayTools(
      { chart: tool({ description: "", inputSchema: z.object({}), execute: async () => mcp }) },
      { store: { home }, sessionId: "mcp" },
    );
    const { text } = await generateText({
      model,
      tools,
      stopWhen: stepCountIs(3),
      prompt: "chart",
    });
    const [attachment] = findOutputIds(text);
    expect(text).toBe(`rendered the chart\n[binary attachment stored as ${attachment}]`);
    const records = await (await spillwaySessionOf(tools)!.store()).list({ sessionId: "mcp" });
    expect(records.map((r) => [r.kind, r.mediaType]).sort()).toEqual([
      ["binary", "image/png"],
      ["text", null],
    ]);
  });

  it("a result under the byte cap but over the token budget goes by handle; a custom formatter writes the message", async () => {
    const { model } = await scriptedAiModel(callThenEcho("report"));
    const home = await tempDir();
    const report = "row,value\n".repeat(400);
    const tools = spillwayTools(
      { report: tool({ description: "", inputSchema: z.object({}), execute: async () => report }) },
      {
        store: { home },
        tokenBudget: () => 100,
        formatHandle: ({ record, defaultText }) =>
          `Stored ${record.lineCount} lines as ${record.id}. ${defaultText.split("\n")[0]}`,
      },
    );
    const { text } = await generateText({ model, tools, stopWhen: stepCountIs(3), prompt: "r" });
    expect(report.length).toBeLessThan(12_288);
    expect(text).toMatch(
      /^Stored 400 lines as out_\w+\. \[spillway\] The output of report is stored whole as out_/,
    );
  });
});

describe("UI messages converted in a later request", () => {
  it("finds the stored output by its tool call id (nothing stored twice); a result never stored is stored then", async () => {
    const home = await tempDir();
    const big = "x".repeat(50_000);
    const fetchPage = tool({
      description: "Fetch a page.",
      inputSchema: z.object({ url: z.string() }),
      execute: async () => big,
    });
    const { model } = await scriptedAiModel((request) =>
      lastMessage(request).role === "tool"
        ? finalText("done")
        : toolCall("fetch_page", { url: "u" }, "call_ui_1"),
    );
    const first = spillwayTools(
      { fetch_page: fetchPage },
      { store: { home }, sessionId: "chat-9" },
    );
    await generateText({ model, tools: first, stopWhen: stepCountIs(2), prompt: "fetch" });
    const stored = await (await spillwaySessionOf(first)!.store()).list({ sessionId: "chat-9" });
    expect(stored).toHaveLength(1);

    // The next HTTP request of the chat: a new tool set, the UI messages sent back by the client.
    const later = spillwayTools(
      { fetch_page: fetchPage },
      { store: { home }, sessionId: "chat-9" },
    );
    const part = (toolCallId: string) => ({
      type: "tool-fetch_page" as const,
      toolCallId,
      state: "output-available" as const,
      input: { url: "u" },
      output: big,
    });
    const messages: UIMessage[] = [
      { id: "1", role: "user", parts: [{ type: "text", text: "fetch" }] },
      { id: "2", role: "assistant", parts: [part("call_ui_1"), part("call_never_seen")] },
    ];
    const modelMessages = await convertToModelMessages(messages, { tools: later });
    const outputs = modelMessages
      .flatMap((m) => (m.role === "tool" ? m.content : []))
      .map((c) => (c.type === "tool-result" && c.output.type === "text" ? c.output.value : ""));
    expect(findOutputIds(outputs[0]!)).toEqual([stored[0]!.id]);
    expect(findOutputIds(outputs[1]!)).toHaveLength(1);
    expect(findOutputIds(outputs[1]!)[0]).not.toBe(stored[0]!.id);
    expect(
      await (await spillwaySessionOf(later)!.store()).list({ sessionId: "chat-9" }),
    ).toHaveLength(2);
  });
});

describe("extraction with an AI SDK model", () => {
  it("mode extract on a 5 MB log: the read-grep agent runs on the AI SDK loop and its quote is verified", async () => {
    const needle = "ERROR checkout: inventory lock timeout for sku 99-ZX";
    const log = generateOutputText({ bytes: 5 * 1024 * 1024, kind: "log", needle, needleAt: 0.4 });
    const agentPolicy: Responder = (request) => {
      const last = toolMessages(request).at(-1);
      if (!last) return toolCall("fetch_logs", {});
      if (last.toolName === "fetch_logs") {
        const [id] = findOutputIds(last.text);
        return toolCall("get_tool_output", {
          id,
          mode: "extract",
          query: "the inventory lock timeout error line",
        });
      }
      return finalText(last.text);
    };
    /** The extraction model: blind, it greps for a word of the query and reports what Grep showed. */
    const extractor: Responder = (request) => {
      const call = extractionCall(request);
      if (call?.kind !== "read-grep") return finalText("not an extraction call");
      const grep = toolMessages(request).at(-1);
      if (!grep) return toolCall("Grep", { pattern: "lock timeout" });
      const line = grep.text
        .split("\n")
        .find((l) => /^\d+:\d+: /.test(l))
        ?.replace(/^\d+:\d+: /, "");
      return toolCall("agent__final_report", {
        report: extractionReport(call.nonce, `The error is: ${line}`, [line ?? ""]),
      });
    };
    const { model } = await scriptedAiModel(agentPolicy);
    const extraction = await scriptedAiModel(extractor);
    const home = await tempDir();
    const tools = spillwayTools(
      {
        fetch_logs: tool({
          description: "",
          inputSchema: z.object({}),
          execute: async () => log.text,
        }),
      },
      { store: { home }, extraction: { model: extraction.model, contextWindow: 16_000 } },
    );
    const { text } = await generateText({ model, tools, stopWhen: stepCountIs(4), prompt: "why?" });
    const line = log.text.slice(0, log.needleByteOffset).split("\n").length;
    expect(text).toContain(`The error is: ${needle}`);
    expect(text).toMatch(
      new RegExp(`1\\. chars [\\d,]+-[\\d,]+, line ${line.toLocaleString("en-US")}: "${needle}"`),
    );
    expect(text).toContain("[extraction: read-grep (auto)");
    expect(extraction.server.requests.length).toBe(2);
    expect(spillwaySessionOf(tools)!.extractionUsage.calls).toBe(2);
  });
});

describe("bad options", () => {
  it("name the option at fault and what is valid", () => {
    const check = (run: () => unknown, pattern: RegExp) => {
      try {
        run();
        expect.unreachable("no error");
      } catch (error) {
        expect(isSpillwayError(error, "CONFIG_INVALID")).toBe(true);
        expect((error as Error).message).toMatch(pattern);
      }
    };
    check(() => spillwayTools({}, { toolResponseMaxBytes: -5 }), /toolResponseMaxBytes: Too small/);
    check(() => spillwayTools({}, { async: { timeoutSec: 5 } as never }), /async: /);
    check(() => spillwayTools({}, { store: { put: 1 } as never }), /store: /);
    const clash = tool({ description: "", inputSchema: z.object({}), execute: async () => "" });
    check(
      () => spillwayTools({ get_tool_output: clash }),
      /already has a tool named get_tool_output/,
    );
  });
});
