import { describe, expect, it } from "vitest";
import { agentFixture, testServerSpec } from "../../test/helpers/agent-fixture.js";
import { continuationCallOf } from "../../test/helpers/continuation-call.js";
import { createToolOutputSurface } from "../surfaces/tool-output.js";
import {
  extractionCall,
  findOutputIds,
  type Responder,
  toolCall,
  toolMessages,
  toolNames,
} from "../testing/index.js";
import { runAgent } from "./run-agent.js";

/**
 * The compatibility surfaces, end to end through the real AI SDK provider: the exact texts and
 * schemas the model receives.
 */

const NEEDLE = "NEEDLE-7c1e";

describe("tool_output surface (compatibility texts)", () => {
  it("sends the exact handle message and schema, and answers in the exact result formats", async () => {
    const respond: Responder = (request) => {
      // The extraction model answers without the final-report wrapper: every attempt fails.
      if (extractionCall(request)) return { text: "I forgot the wrapper." };
      const results = toolMessages(request);
      const last = results[results.length - 1];
      if (!last)
        return toolCall("test__generate_output", { bytes: 50_000, kind: "log", needle: NEEDLE });
      const [handle] = findOutputIds(results[0]!.text);
      if (results.length === 1)
        return toolCall("tool_output", { handle, extract: "the needle line", mode: "truncate" });
      if (results.length === 2)
        return toolCall("tool_output", { handle, extract: "the needle line" });
      if (results.length === 3)
        return toolCall("tool_output", { handle: "out_doesnotexist0000000000000", extract: "x" });
      return toolCall("agent__final_report", { report: "done" });
    };
    const fixture = await agentFixture(respond);
    const agent = await fixture.agent("tool-output", {
      mcpServers: { test: testServerSpec() },
      toolOutput: { surface: "tool_output" },
    });
    const result = await runAgent({
      agent,
      prompt: "go",
      stores: fixture.stores,
      cwd: fixture.dir,
    });
    expect(result.status, result.error ?? "").toBe("completed");
    const requests = fixture.server.requests;
    const handleMessage = toolMessages(requests[1]!)[0]!.text;
    const id = findOutputIds(handleMessage)[0]!;
    const record = await fixture.stores.outputs.get(id, { sessionId: result.sessionId });
    expect(handleMessage).toBe(
      `Tool output is too large (${record.byteSize} bytes, ${record.lineCount} lines, ${record.tokenEstimate} tokens).\n` +
        `Call tool_output(handle = "${id}", extract = "what to extract").\n` +
        "Provide precise and detailed instructions in `extract` about what you are looking for.",
    );
    // Not listed before an output is stored; listed after, with its exact compatibility schema.
    expect(toolNames(requests[0]!)).not.toContain("tool_output");
    const schema = requests[1]!.tools!.find((t) => t.function.name === "tool_output")!.function
      .parameters;
    // What is sent over HTTP is the surface's schema (pinned in tool-schemas.test.ts).
    expect(schema).toEqual(createToolOutputSurface().tools()[0]!.inputSchema);
    const [, truncate, fallback, missing] = toolMessages(requests.at(-1)!).map((m) => m.text);
    expect(
      truncate!.startsWith(
        `ABSTRACT FROM TOOL OUTPUT test__generate_output WITH HANDLE ${id}, STRATEGY:truncate:\n\n`,
      ),
    ).toBe(true);
    expect(truncate).toContain(`the whole output is stored as ${id}`);
    // The extraction model failed three times: D0-4's fallback, with the warning first.
    expect(
      fallback!.startsWith(
        `ABSTRACT FROM TOOL OUTPUT test__generate_output WITH HANDLE ${id}, STRATEGY:truncate:\n\nWARNING: strategy full-chunked (chosen by auto) could not run`,
      ),
    ).toBe(true);
    expect(fallback).toContain("answered without the final-report wrapper");
    expect(
      missing!.startsWith(
        "TOOL_OUTPUT FAILED FOR unknown WITH HANDLE out_doesnotexist0000000000000, STRATEGY:auto:\n\n",
      ),
    ).toBe(true);
  });
});

describe("get_continuation surface (continuation texts)", () => {
  it("ends oversized results with the exact marker, continues by offset, and does not count those turns", async () => {
    const respond: Responder = (request) => {
      const results = toolMessages(request);
      const last = results[results.length - 1];
      if (!last)
        return toolCall("test__generate_output", { bytes: 9_000, kind: "text" }, "call_abc123");
      const next = continuationCallOf(last.text);
      if (next) return next;
      if (results.length === 3) return toolCall("get_continuation", { tool_call_id: "call_nope" });
      return toolCall("agent__final_report", { report: "read it all" });
    };
    const fixture = await agentFixture(respond);
    const agent = await fixture.agent("continuation", {
      mcpServers: { test: testServerSpec() },
      maxTurns: 3,
      toolOutput: { surface: "get_continuation" },
    });
    const result = await runAgent({
      agent,
      prompt: "go",
      stores: fixture.stores,
      cwd: fixture.dir,
    });
    expect(result.status).toBe("completed");
    const texts = toolMessages(fixture.server.requests.at(-1)!).map((m) => m.text);
    expect(
      texts[0]!.endsWith(
        '\n[truncated — showing 4000/9000 chars. Call get_continuation with tool_call_id="call_abc123" to read more]',
      ),
    ).toBe(true);
    expect(texts[0]!.length).toBe(
      4000 +
        1 +
        '[truncated — showing 4000/9000 chars. Call get_continuation with tool_call_id="call_abc123" to read more]'
          .length,
    );
    expect(
      texts[1]!.endsWith(
        '[truncated — showing 8000/9000 chars. Call get_continuation with tool_call_id="call_abc123" offset=8000 to read more]',
      ),
    ).toBe(true);
    expect(texts[2]).toHaveLength(1000); // the last chunk has no marker
    expect(texts[3]).toBe('{"error":"Unknown tool_call_id: call_nope"}');
    // 1 generate + 3 continuation turns + final: only 2 turns counted against maxTurns 3.
    expect(fixture.server.requests).toHaveLength(5);
    expect(result.turns).toBe(2);
    // The exact compatibility schema.
    const schema = fixture.server.requests[1]!.tools!.find(
      (t) => t.function.name === "get_continuation",
    )!.function.parameters;
    expect(schema).toEqual({
      type: "object",
      properties: {
        tool_call_id: {
          type: "string",
          description: "The tool_call_id from the truncation message",
        },
        offset: { type: "integer", description: "Character offset to read from (default: 4000)" },
      },
      required: ["tool_call_id"],
    });
    // The canonical history never holds the marker.
    expect(JSON.stringify(await fixture.stores.history.messages(result.sessionId))).not.toContain(
      "[truncated",
    );
  });
});
