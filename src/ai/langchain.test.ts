/**
 * spillway/langchain with real @langchain/core tools, invoked the way LangChain agents
 * (ToolNode, createAgent) invoke them: with the model's tool call, answered by a ToolMessage.
 */
import { ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { tempDir } from "../../test/helpers/temp-store.js";
import { isSpillwayError } from "../core/errors.js";
import { findOutputIds, generateOutputText } from "../testing/index.js";
import { closeSpillwayStores } from "./default-store.js";
import { spillwayLangChainTools } from "./langchain.js";

afterEach(() => closeSpillwayStores());

const NEEDLE = "ERROR search-index: shard 7 rejected writes (disk watermark exceeded)";
const LOG = generateOutputText({
  bytes: 3 * 1024 * 1024,
  kind: "log",
  needle: NEEDLE,
  needleAt: 0.5,
});

const fetchLogs = tool(
  async ({ service }: { service: string }) => (service === "search" ? LOG.text : ""),
  {
    name: "fetch_logs",
    description: "Fetch a service's log.",
    schema: z.object({ service: z.string() }),
  },
);
const lookup = tool(async ({ sku }: { sku: string }) => ({ sku, stock: 3 }), {
  name: "lookup",
  description: "Stock of a product.",
  schema: z.object({ sku: z.string() }),
});

const call = (name: string, args: Record<string, unknown>, id: string) => ({
  id,
  name,
  args,
  type: "tool_call" as const,
});

describe("spillwayLangChainTools", () => {
  it("a 3 MB result goes back as the handle message; get_tool_output greps the needle; small results are shown as themselves", async () => {
    const home = await tempDir();
    const { tools, session } = spillwayLangChainTools([fetchLogs, lookup], {
      store: { home },
      sessionId: "lc-1",
    });
    expect(tools.map((t) => t.name)).toEqual(["fetch_logs", "lookup", "get_tool_output"]);
    const [wrappedFetch, wrappedLookup, getToolOutput] = tools;

    const first = await wrappedFetch!.invoke(call("fetch_logs", { service: "search" }, "call_1"));
    expect(first).toBeInstanceOf(ToolMessage);
    const handle = String((first as ToolMessage).content);
    expect(handle).toContain("[spillway] The output of fetch_logs is stored whole as out_");
    expect(handle.length).toBeLessThan(4000);

    const [id] = findOutputIds(handle);
    const grep = await getToolOutput!.invoke(
      call("get_tool_output", { id, mode: "grep", pattern: "shard 7" }, "call_2"),
    );
    const line = LOG.text.slice(0, LOG.needleByteOffset).split("\n").length;
    expect(String((grep as ToolMessage).content)).toMatch(
      new RegExp(`\\n${line}:\\d+: .*${NEEDLE.replace(/[()]/g, "\\$&")}`),
    );

    const small = await wrappedLookup!.invoke(call("lookup", { sku: "A" }, "call_3"));
    expect(JSON.parse(String((small as ToolMessage).content))).toEqual({ sku: "A", stock: 3 });

    const stored = await (await session.store()).list({ sessionId: "lc-1" });
    expect(stored.map((r) => [r.toolName, r.toolCallId, r.byteSize]).sort()).toEqual([
      ["fetch_logs", "call_1", LOG.byteLength],
      ["lookup", "call_3", 30],
    ]);
  });

  it("a malformed read is answered with an error text the model can act on", async () => {
    const home = await tempDir();
    const { tools } = spillwayLangChainTools([fetchLogs], { store: { home } });
    const answer = await tools[1]!.invoke(
      call("get_tool_output", { id: "out_missing", mode: "raw" }, "c"),
    );
    expect(String((answer as ToolMessage).content)).toMatch(
      /^Error OUTPUT_NOT_FOUND: Unknown tool ID: out_missing/,
    );
  });

  it("refuses async and a tool named get_tool_output, saying why", () => {
    expect(() => spillwayLangChainTools([fetchLogs], { async: true } as never)).toThrow(
      /does not take `async`/,
    );
    const clash = tool(async () => "", {
      name: "get_tool_output",
      description: "",
      schema: z.object({}),
    });
    try {
      spillwayLangChainTools([clash]);
      expect.unreachable();
    } catch (error) {
      expect(isSpillwayError(error, "CONFIG_INVALID")).toBe(true);
    }
  });
});
