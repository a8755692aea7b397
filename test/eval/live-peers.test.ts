/**
 * The peers' handling of a large result and of a full window, as the live benchmark plays them
 * (eval/live/peers/): Codex's middle cut, Claude Code's persisted output with its Read and Grep,
 * paging's marker, and the context management each applies when the window fills.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import type { WindowState } from "../../eval/live/peer-loop.js";
import { claudeCode } from "../../eval/live/peers/claude-code.js";
import { codex, codexCut } from "../../eval/live/peers/codex.js";
import {
  CODEX_COMPACTION,
  clearOldResults,
  compactHistory,
} from "../../eval/live/peers/context.js";
import { paging } from "../../eval/live/peers/paging.js";
import { tempDir } from "../helpers/temp-store.js";

const LINES = Array.from({ length: 3000 }, (_, i) => `line ${i + 1} value=v${(i * 7919) % 100000}`);
const TEXT = `${LINES.join("\n")}\n`;
const countText = (text: string) => Math.ceil(text.length / 4);

/** A project directory holding `data/f.txt`. */
async function projectWith(text: string): Promise<string> {
  const project = await tempDir("spillway-project-");
  await mkdir(join(project, "data"));
  await writeFile(join(project, "data", "f.txt"), text);
  return project;
}

const toolResult = (id: string, value: string): ModelMessage => ({
  role: "tool",
  content: [
    { type: "tool-result", toolCallId: id, toolName: "t", output: { type: "text", value } },
  ],
});

const stateOf = (messages: ModelMessage[], window: number, summary = "SUMMARY"): WindowState => {
  const count = (list: readonly ModelMessage[]) =>
    list.reduce((sum, m) => sum + countText(JSON.stringify(m)), 0);
  return { tokens: count(messages), window, count, summarize: async () => summary };
};

describe("Codex", () => {
  it("keeps the head and the tail within 12,000 bytes and says how much it cut", () => {
    const cut = codexCut(TEXT);
    expect(Buffer.byteLength(cut)).toBeLessThan(12_100);
    expect(cut.startsWith("line 1 ")).toBe(true);
    expect(cut.trimEnd().endsWith(LINES.at(-1)!)).toBe(true);
    const removed = Number(/…(\d+) chars truncated…/.exec(cut)?.[1]);
    expect(removed).toBe(TEXT.length - cut.length + `…${removed} chars truncated…`.length);
    expect(codexCut("short")).toBe("short");
  });

  it("cuts to four bytes a token of a tool output limit, and says how many tokens it cut", async () => {
    const cjk = "在庫メモ 品番: KT-39308 数量: 117\n".repeat(2000);
    const cut = codexCut(cjk, { tokens: 1000 }, 1.2);
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(4800 + 40);
    expect(cut.startsWith("在庫メモ")).toBe(true);
    expect(cut).not.toContain("\uFFFD");
    const removed = Number(/…(\d+) tokens truncated…/.exec(cut)?.[1]);
    expect(removed).toBeGreaterThan((Buffer.byteLength(cjk) - 4800) / 4 - 2);
    expect(removed).toBeLessThan((Buffer.byteLength(cjk) - 4800) / 4 + 2);
    const harness = codex(await projectWith(cjk), 1000);
    expect(Buffer.byteLength(await harness.view(cjk, "v1"))).toBeLessThanOrEqual(4800 + 40);
    const cat = await harness.run("shell", { command: ["cat", "data/f.txt"] }, "s1");
    expect(cat).toMatch(/…\d+ tokens truncated…/);
    expect(Buffer.byteLength(cat)).toBeLessThan(4000 + 200);
  });

  it("summarizes from the question alone when the latest result does not fit a summary request", async () => {
    const messages: ModelMessage[] = [
      { role: "user", content: "the question" },
      toolResult("a", "x".repeat(40_000)),
    ];
    const summarized: number[] = [];
    const state = {
      ...stateOf(messages, 2_000),
      summarize: async (history: readonly ModelMessage[]) => {
        summarized.push(history.length);
        return "SUMMARY";
      },
    };
    const compacted = await compactHistory(messages, state, CODEX_COMPACTION);
    expect(summarized).toEqual([1]);
    expect(compacted[0]).toEqual({ role: "user", content: "the question" });
  });

  it("runs shell commands in the project, their long output cut the same way, with a warning", async () => {
    const project = await projectWith(TEXT);
    const harness = codex(project);
    const count = await harness.run(
      "shell",
      { command: ["bash", "-lc", "grep -c line data/f.txt"] },
      "s1",
    );
    expect(count).toMatch(/^Exit code: 0\nWall time: \d+\.\d seconds\nOutput:\n3000\n$/);
    const cat = await harness.run("shell", { command: ["cat", "data/f.txt"] }, "s2");
    expect(cat).toMatch(
      /Output:\nWarning: truncated output \(original token count: \d+\)\nTotal output lines: 3001\n\nline 1 /,
    );
    expect(cat).toMatch(/…\d+ chars truncated…/);
    expect(await harness.run("shell", { command: [] }, "s3")).toMatch(/^Error: command must be/);
  });

  it("compacts to the user's messages and a summary at 90% of the window", async () => {
    const messages: ModelMessage[] = [
      { role: "user", content: "the question" },
      toolResult("a", "x".repeat(4000)),
    ];
    const harness = codex(await tempDir("spillway-codex-"));
    expect(await harness.manage(messages, stateOf(messages, 100_000))).toBe(messages);
    const compacted = await harness.manage(messages, stateOf(messages, 1_000));
    expect(compacted).toHaveLength(2);
    expect(compacted[0]).toEqual({ role: "user", content: "the question" });
    expect(String(compacted[1]!.content)).toMatch(
      /^You are resuming an in-progress task.*\nSUMMARY$/s,
    );
  });
});

describe("Claude Code", () => {
  it("persists a result over 50,000 characters with a 2 KB preview, and reads it back with Read and Grep", async () => {
    const project = await projectWith("unrelated\n");
    const harness = claudeCode(
      project,
      join(await tempDir("spillway-cc-spill-"), "t1"),
      2048,
      countText,
    );
    const view = await harness.view(TEXT, "call_1");
    const path = /Full output saved to: (\S+)/.exec(view)?.[1];
    expect(view).toMatch(/^<persisted-output>\nOutput too large \(\d+\.\dKB\)/);
    expect(view.length).toBeLessThan(2_300);
    expect(path).toBeDefined();
    expect(await harness.view("small", "call_2")).toBe("small");
    // Read with a range: numbered lines.
    expect(await harness.run("Read", { file_path: path, offset: 10, limit: 2 }, "r1")).toBe(
      `10\t${LINES[9]}\n11\t${LINES[10]}`,
    );
    // A whole-file read over the cap: a first page marked partial; an explicit range over it: an error.
    const whole = await harness.run("Read", { file_path: path }, "r2");
    expect(whole).toMatch(/^\[Truncated: PARTIAL view of .*: lines 1-\d+ of 3000/);
    expect(countText(whole)).toBeLessThanOrEqual(2048 + 40);
    expect(await harness.run("Read", { file_path: path, offset: 1, limit: 3000 }, "r3")).toMatch(
      /^Error: File content \(\d+ tokens\) exceeds maximum allowed tokens \(2048\)/,
    );
    // Grep lists files by default; content mode shows numbered lines with context.
    expect(await harness.run("Grep", { pattern: "line 2999 ", path: dirname(path!) }, "g1")).toBe(
      path,
    );
    // Without a path it searches the project, as ripgrep searches its working directory.
    expect(await harness.run("Grep", { pattern: "line 2999 " }, "g0")).toBe("No matches found");
    expect(
      await harness.run(
        "Grep",
        { pattern: "^line 2999 ", path, output_mode: "content", "-C": 1 },
        "g2",
      ),
    ).toBe(`2998-${LINES[2997]}\n2999:${LINES[2998]}\n3000-${LINES[2999]}`);
    // Nothing outside the spill directory.
    expect(await harness.run("Read", { file_path: "/etc/passwd" }, "r4")).toMatch(
      /^Error: File does not exist/,
    );
  });

  it("clears older tool results first, keeping the latest three, then summarizes", async () => {
    const messages: ModelMessage[] = [
      { role: "user", content: "q" },
      ...["a", "b", "c", "d", "e"].map((id) => toolResult(id, id.repeat(2000))),
    ];
    const cleared = clearOldResults(messages, 3, "[Old tool result content cleared]");
    const values = cleared.flatMap((m) =>
      m.role === "tool"
        ? m.content.map((p) =>
            p.type === "tool-result" && p.output.type === "text" ? p.output.value : "",
          )
        : [],
    );
    expect(values.slice(0, 2)).toEqual([
      "[Old tool result content cleared]",
      "[Old tool result content cleared]",
    ]);
    expect(values.slice(2).map((v) => v[0])).toEqual(["c", "d", "e"]);
    const harness = claudeCode(
      await tempDir("spillway-cc-"),
      await tempDir("spillway-cc-spill-"),
      2048,
      countText,
    );
    // Clearing is enough for this window: no summary.
    const managed = await harness.manage(messages, stateOf(messages, 3_000));
    expect(managed).toHaveLength(messages.length);
    // Not enough: the conversation continues from a summary.
    const summarized = await harness.manage(messages, stateOf(messages, 800));
    expect(summarized).toHaveLength(2);
    expect(String(summarized[1]!.content)).toMatch(
      /continued from a previous conversation.*SUMMARY$/s,
    );
  });
});

describe("paging", () => {
  it("shows 4,000 characters with the continuation marker, then the next page from the offset", async () => {
    const harness = paging();
    const first = await harness.view(TEXT, "call_9");
    expect(first.slice(0, 4000)).toBe(TEXT.slice(0, 4000));
    expect(first).toContain(
      `[truncated — showing 4000/${TEXT.length} chars. Call get_continuation with tool_call_id="call_9" to read more]`,
    );
    const next = await harness.run(
      "get_continuation",
      { tool_call_id: "call_9", offset: 4000 },
      "x",
    );
    expect(next.startsWith(TEXT.slice(4000, 4100))).toBe(true);
    expect(await harness.run("get_continuation", { tool_call_id: "nope" }, "x")).toMatch(
      /Unknown tool_call_id/,
    );
    expect(harness.uncounted?.has("get_continuation")).toBe(true);
  });
});
