import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  firstText,
  handleId,
  startTestGateway,
  type TestGateway,
} from "../../test/helpers/gateway-fixture.js";

/**
 * The gateway's tool path with a real SDK client and a real upstream server (the everything
 * fixture, a child process): small results pass through unchanged, large ones become handle
 * messages, everything is stored whole, errors pass through and are stored, handle references
 * are resolved byte for byte.
 */
describe("gateway tool calls", () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway({ cli: { maxInlineBytes: 4096 } });
  });
  afterAll(async () => {
    await gateway?.close();
  });
  const call = (name: string, args: Record<string, unknown> = {}) =>
    gateway.client.callTool({ name, arguments: args });
  const sessionId = () => gateway.session.sessionId as string;

  it("lists the server's tools under their own names, then get_tool_output", async () => {
    const { tools } = await gateway.client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain("test_simple_text");
    expect(names.at(-1)).toBe("get_tool_output");
    const read = tools.at(-1)!;
    expect(read.description).toContain("spillway://outputs/<id>");
    expect(read.description).toContain("8 MiB");
    // No model for extract: the mode is not offered.
    expect(JSON.stringify(read.inputSchema)).not.toContain('"extract"');
    // outputSchema is not passed on (a handle message cannot match it); the rest is.
    const structured = tools.find((t) => t.name === "structured_report")!;
    expect(structured.outputSchema).toBeUndefined();
    const raw = tools.find((t) => t.name === "json_schema_2020_12_tool")!;
    expect(raw.inputSchema).toMatchObject({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $defs: { address: { type: "object" } },
      additionalProperties: false,
    });
  });

  it("passes a small result through unchanged, after storing it", async () => {
    const result = await call("test_simple_text");
    expect(result).toEqual({
      content: [{ type: "text", text: "This is a simple text response for testing." }],
    });
    const [record] = await gateway.stores.outputs.list({ sessionId: sessionId(), limit: 1 });
    expect(record?.toolName).toBe("test_simple_text");
    expect(record?.byteSize).toBe(43);
  });

  it("keeps structuredContent of a small result, and stores it too", async () => {
    const result = await call("structured_report", { rows: 3 });
    expect(result.structuredContent).toEqual({
      count: 3,
      rows: [
        { id: 0, name: "row 0" },
        { id: 1, name: "row 1" },
        { id: 2, name: "row 2" },
      ],
    });
    const records = await gateway.stores.outputs.list({ sessionId: sessionId(), limit: 2 });
    const json = records.find((r) => r.kind === "json" && r.lineCount! > 1)!;
    const opened = await gateway.stores.outputs.open(json.id, { sessionId: sessionId() });
    const text = Buffer.from(await opened.source.read(0, opened.source.size)).toString("utf8");
    await opened.close();
    expect(JSON.parse(text)).toEqual(result.structuredContent);
  });

  it("stores images and embedded resources as their own outputs", async () => {
    const result = await call("test_multiple_content_types");
    expect((result.content as { type: string }[]).map((c) => c.type)).toEqual([
      "text",
      "image",
      "resource",
    ]);
    const records = await gateway.stores.outputs.list({ sessionId: sessionId(), limit: 2 });
    const image = records.find((r) => r.kind === "binary")!;
    expect(image.mediaType).toBe("image/png");
    const text = records.find((r) => r.kind !== "binary")!;
    const opened = await gateway.stores.outputs.open(text.id, { sessionId: sessionId() });
    const body = Buffer.from(await opened.source.read(0, opened.source.size)).toString("utf8");
    await opened.close();
    expect(body).toBe('Multiple content types test:\n{"test":"data","value":123}');
  });

  it("replaces a large result by its handle message and a resource link", async () => {
    const result = await call("big_text", { bytes: 200_000, needle: "NEEDLE-7f3a" });
    const text = firstText(result);
    const id = handleId(result);
    expect(text).toMatch(/^\[spillway\] The output of big_text is stored whole as out_\w+ \(/);
    expect(text).toContain(`get_tool_output(id="${id}", mode="grep"`);
    // The middle of the output is not in the answer (only the call's arguments name the needle).
    expect(text).not.toContain("NEEDLE-7f3a");
    expect(JSON.stringify(result)).not.toContain("line 0001800");
    expect(JSON.stringify(result).length).toBeLessThan(4096);
    const link = (result.content as { type: string; uri?: string }[])[1];
    expect(link).toMatchObject({ type: "resource_link", uri: `spillway://outputs/${id}` });
    const grep = await call("get_tool_output", { id, mode: "grep", pattern: "NEEDLE-7f3a" });
    expect(firstText(grep)).toMatch(/^\[out_\w+ grep "NEEDLE-7f3a": 1 matching line/);
    expect(firstText(grep)).toMatch(/\n\d+:1: NEEDLE-7f3a/);
  });

  it("searches an output by words, and every output of the session without an id", async () => {
    const result = await call("big_text", { bytes: 120_000, needle: "BOOT-MARKER-ALPHA" });
    const id = handleId(result);
    const one = await call("get_tool_output", { id, mode: "search", query: "boot marker" });
    expect(one.isError).toBeFalsy();
    expect(firstText(one)).toMatch(
      new RegExp(`^\\[${id} search "boot marker": 1 matching line .*\\n\\d+: .*BOOT-MARKER-ALPHA`),
    );
    // No id: the session's outputs, this one and those stored before it, ranked together.
    const all = await call("get_tool_output", { mode: "search", query: "boot marker alpha" });
    expect(firstText(all)).toMatch(
      /^\[search of this session's \d+ outputs for "boot marker alpha"/,
    );
    expect(firstText(all)).toContain(`[${id} big_text]`);
    // Without a model for extract, query stays: search takes it.
    const { tools } = await gateway.client.listTools();
    const schema = tools.at(-1)!.inputSchema as { properties: Record<string, unknown> };
    expect(schema.properties.query).toMatchObject({
      description: expect.stringContaining("search"),
    });
  });

  it("passes an isError result through, stores it, and shows a large one by handle", async () => {
    const thrown = await call("test_error_handling");
    expect(thrown.isError).toBe(true);
    expect(firstText(thrown)).toContain("This tool intentionally returns an error for testing");
    const large = await call("report_error", { bytes: 50_000 });
    expect(large.isError).toBe(true);
    expect(firstText(large)).toMatch(
      /^\[the tool reported an error\]\n\[spillway\] The output of report_error/,
    );
    const id = handleId(large);
    const read = await call("get_tool_output", { id, mode: "grep", pattern: "THE ERROR" });
    expect(firstText(read)).toContain("THE ERROR");
  });

  it("answers an unknown tool with a JSON-RPC error naming the tools", async () => {
    const error = await call("no_such_tool").catch((e: unknown) => e as Error);
    expect((error as { code?: number }).code).toBe(-32602);
    expect((error as Error).message).toMatch(
      /Unknown tool: no_such_tool\. Tools here: .*get_tool_output/,
    );
  });

  it("replaces a handle reference argument by the exact stored content", async () => {
    const big = await call("big_text", { bytes: 30_000 });
    const id = handleId(big);
    const whole = await call("echo", { text: `spillway://outputs/${id}` });
    // The echo is as large as the output: it comes back as a handle; its stored bytes match.
    const echoed = handleId(whole);
    const [a, b] = await Promise.all(
      [id, echoed].map((output) => gateway.stores.outputs.get(output, { sessionId: sessionId() })),
    );
    expect(b?.sha256).toBe(a?.sha256);
    const part = await call("echo", { text: `spillway://outputs/${id}?lines=2-3` });
    expect(firstText(part)).toBe(
      `line 0000002 ${"abcdefghij".repeat(4)}\nline 0000003 ${"abcdefghij".repeat(4)}\n`,
    );
    const chars = await call("echo", { text: `spillway://outputs/${id}?chars=5-12` });
    expect(firstText(chars)).toBe("0000001");
    // Inside a longer string it is not a reference.
    const inside = await call("echo", { text: `see spillway://outputs/${id}` });
    expect(firstText(inside)).toBe(`see spillway://outputs/${id}`);
  });

  it("refuses a malformed, unknown or too large reference, naming it, without calling the tool", async () => {
    const bad = await call("echo", { text: "spillway://outputs/out_12345678?lines=9-2" });
    expect(bad.isError).toBe(true);
    expect(firstText(bad)).toMatch(
      /^Error INVALID_ARGUMENT: Argument \$\.text: Argument handle reference "spillway:\/\/outputs\/out_12345678\?lines=9-2": the range ends \(2\) before it starts \(9\)/,
    );
    const unknown = await call("echo", { text: "spillway://outputs/out_0000000000000000" });
    expect(firstText(unknown)).toMatch(
      /^Error OUTPUT_NOT_FOUND: Argument \$\.text: No output with id "out_0000000000000000"/,
    );
    const small = await startTestGateway({ cli: { maxReferenceBytes: 10_000 } });
    try {
      const big = await small.client.callTool({ name: "big_text", arguments: { bytes: 30_000 } });
      const id = handleId(big);
      const before = (await small.stores.outputs.list({ sessionId: small.session.sessionId! }))
        .length;
      const refused = await small.client.callTool({
        name: "echo",
        arguments: { text: `spillway://outputs/${id}` },
      });
      expect(refused.isError).toBe(true);
      expect(firstText(refused)).toMatch(
        /names 30,\d{3} bytes, over the limit of 10,000 bytes \(--max-reference-bytes\); the call was not made/,
      );
      // Nothing was sent to the server: no new output.
      expect(
        (await small.stores.outputs.list({ sessionId: small.session.sessionId! })).length,
      ).toBe(before);
    } finally {
      await small.close();
    }
  });

  it("reads outputs as resources, whole or by range, with provenance", async () => {
    const big = await call("big_text", { bytes: 20_000 });
    const id = handleId(big);
    const record = await gateway.stores.outputs.get(id, { sessionId: sessionId() });
    const whole = await gateway.client.readResource({ uri: `spillway://outputs/${id}` });
    const content = whole.contents[0] as {
      text: string;
      _meta: Record<string, { sha256: string }>;
    };
    expect(createHash("sha256").update(content.text).digest("hex")).toBe(record.sha256);
    expect(content._meta["io.github.spillway/provenance"]?.sha256).toBe(record.sha256);
    const lines = await gateway.client.readResource({
      uri: `spillway://outputs/${id}?lines=10-11`,
    });
    expect((lines.contents[0] as { text: string }).text).toMatch(
      /^line 0000010 .*\nline 0000011 .*\n$/,
    );
    const listed = await gateway.client.listResources();
    expect(listed.resources.some((r) => r.uri === `spillway://outputs/${id}`)).toBe(true);
    expect(listed.resources.some((r) => r.uri === "test://static-text")).toBe(true);
    const missing = await gateway.client
      .readResource({ uri: "spillway://outputs/out_0000000000000000" })
      .catch((e: unknown) => e as { code: number; message: string });
    expect(missing).toMatchObject({ code: -32002 });
  });
});
