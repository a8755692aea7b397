import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  everythingServer,
  firstText,
  startTestGateway,
  type TestGateway,
} from "../../test/helpers/gateway-fixture.js";

/**
 * Everything between client and server that is not a tool result, through the gateway:
 * progress and cancellation both ways, a server's sampling, elicitation and roots requests to
 * the client, log messages, prompts, resources and completion.
 */
describe("gateway relay", () => {
  let gateway: TestGateway;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "spillway-relay-"));
    gateway = await startTestGateway();
  });
  afterAll(async () => {
    await gateway?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("passes the server's progress notifications to the client", async () => {
    const seen: { progress: number; total?: number }[] = [];
    const result = await gateway.client.callTool(
      { name: "test_tool_with_progress", arguments: {} },
      undefined,
      {
        onprogress: (p) =>
          seen.push({ progress: p.progress, ...(p.total ? { total: p.total } : {}) }),
      },
    );
    expect(seen).toEqual([
      { progress: 0, total: 100 },
      { progress: 50, total: 100 },
      { progress: 100, total: 100 },
    ]);
    // The server saw a progress token (the gateway's own, not the client's).
    expect(firstText(result)).not.toBe("no progress token");
  });

  it("passes the client's cancellation to the server, and records the call aborted", async () => {
    const marker = join(dir, "cancelled.txt");
    const controller = new AbortController();
    let progressed = 0;
    const pending = gateway.client.callTool(
      { name: "wait_for_cancel", arguments: { marker } },
      undefined,
      {
        signal: controller.signal,
        onprogress: () => {
          progressed++;
          if (progressed === 2) controller.abort();
        },
      },
    );
    await expect(pending).rejects.toThrow();
    for (let i = 0; i < 100 && !existsSync(marker); i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(readFileSync(marker, "utf8")).toBe("cancelled");
    const sessionId = gateway.session.sessionId as string;
    let calls = await gateway.stores.history.toolCalls(sessionId);
    for (let i = 0; i < 100 && !calls.some((c) => c.toolName === "wait_for_cancel"); i++) {
      await new Promise((r) => setTimeout(r, 20));
      calls = await gateway.stores.history.toolCalls(sessionId);
    }
    expect(calls.find((c) => c.toolName === "wait_for_cancel")?.status).toBe("aborted");
  });
});

describe("gateway relay (server requests, logs, prompts, resources)", () => {
  let gateway: TestGateway;
  const logs: string[] = [];
  beforeAll(async () => {
    gateway = await startTestGateway({
      capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: false } },
      setup: (client) => {
        client.setRequestHandler(CreateMessageRequestSchema, async (request) => ({
          role: "assistant",
          content: {
            type: "text",
            text: `echo of ${(request.params.messages[0]?.content as { text?: string } | undefined)?.text}`,
          },
          model: "client-model",
        }));
        client.setRequestHandler(ElicitRequestSchema, async (request) => ({
          action: "accept",
          content: { username: `user for ${request.params.message}`, email: "a@b.c" },
        }));
        client.setRequestHandler(ListRootsRequestSchema, async () => ({
          roots: [{ uri: "file:///work", name: "work" }],
        }));
        client.setNotificationHandler(LoggingMessageNotificationSchema, async (n) => {
          logs.push(String(n.params.data));
        });
      },
    });
  });
  afterAll(async () => {
    await gateway?.close();
  });
  const call = (name: string, args: Record<string, unknown> = {}) =>
    gateway.client.callTool({ name, arguments: args });

  it("relays a server's sampling, elicitation and roots requests to the client", async () => {
    expect(firstText(await call("test_sampling", { prompt: "2+2?" }))).toBe(
      "LLM response: echo of 2+2?",
    );
    expect(firstText(await call("test_elicitation", { message: "who?" }))).toBe(
      'User response: action=accept, content={"username":"user for who?","email":"a@b.c"}',
    );
    expect(JSON.parse(firstText(await call("list_roots")))).toEqual({
      roots: [{ uri: "file:///work", name: "work" }],
    });
  });

  it("passes a tool's log messages to the client while the call runs", async () => {
    logs.length = 0;
    await call("test_tool_with_logging");
    expect(logs).toEqual([
      "Tool execution started",
      "Tool processing data",
      "Tool execution completed",
    ]);
  });

  it("advertises and forwards prompts, logging levels and completion", async () => {
    expect(gateway.client.getServerCapabilities()).toMatchObject({
      tools: {},
      resources: { listChanged: true, subscribe: true },
      prompts: { listChanged: true },
      logging: {},
      completions: {},
    });
    const { prompts } = await gateway.client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual([
      "test_prompt_with_arguments",
      "test_prompt_with_embedded_resource",
      "test_prompt_with_image",
      "test_simple_prompt",
    ]);
    const got = await gateway.client.getPrompt({
      name: "test_prompt_with_arguments",
      arguments: { arg1: "a", arg2: "b" },
    });
    expect(got.messages[0]?.content).toEqual({
      type: "text",
      text: "Prompt with arguments: arg1='a', arg2='b'",
    });
    logs.length = 0;
    await gateway.client.setLoggingLevel("debug");
    for (let i = 0; i < 40 && logs.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(logs).toContain("Log level set to: debug");
    await call("test_simple_text");
    const completion = await gateway.client.complete({
      ref: { type: "ref/resource", uri: "spillway://outputs/{id}" },
      argument: { name: "id", value: "out_" },
    });
    expect(completion.completion.values.length).toBeGreaterThan(0);
    expect(completion.completion.values.every((v) => v.startsWith("out_"))).toBe(true);
  });

  it("forwards resources of the server: read, template, subscribe", async () => {
    const text = await gateway.client.readResource({ uri: "test://static-text" });
    expect(text.contents[0]).toEqual({
      uri: "test://static-text",
      mimeType: "text/plain",
      text: "This is the content of the static text resource.",
    });
    const templated = await gateway.client.readResource({ uri: "test://template/123/data" });
    expect(JSON.parse((templated.contents[0] as { text: string }).text)).toEqual({
      id: "123",
      templateTest: true,
      data: "Data for ID: 123",
    });
    const { resourceTemplates } = await gateway.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      "spillway://outputs/{id}",
      "test://template/{id}/data",
    ]);
    expect(await gateway.client.subscribeResource({ uri: "test://watched-resource" })).toEqual({});
    expect(await gateway.client.unsubscribeResource({ uri: "test://watched-resource" })).toEqual(
      {},
    );
  });
});

describe("gateway with several servers", () => {
  it("namespaces tools and prompts server__name and routes each call", async () => {
    const gateway = await startTestGateway({
      servers: { a: everythingServer(), b: everythingServer() },
    });
    try {
      const { tools } = await gateway.client.listTools();
      const names = tools.map((t) => t.name);
      expect(names).toContain("a__test_simple_text");
      expect(names).toContain("b__test_simple_text");
      expect(names.at(-1)).toBe("get_tool_output");
      const result = await gateway.client.callTool({
        name: "b__echo",
        arguments: { text: "via b" },
      });
      expect(firstText(result)).toBe("via b");
      const { prompts } = await gateway.client.listPrompts();
      expect(prompts.map((p) => p.name)).toContain("b__test_simple_prompt");
      const prompt = await gateway.client.getPrompt({ name: "a__test_simple_prompt" });
      expect(prompt.messages).toHaveLength(1);
      const [record] = await gateway.stores.outputs.list({
        sessionId: gateway.session.sessionId!,
        limit: 1,
      });
      expect(record?.toolName).toBe("b__echo");
    } finally {
      await gateway.close();
    }
  });
});
