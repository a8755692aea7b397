import { describe, expect, it } from "vitest";
import { origin, SCOPE, tempStore } from "../../../test/helpers/temp-store.js";
import type { ReadScope } from "../../store/output-store.js";
import { createGetToolOutputSurface } from "../get-tool-output.js";
import type { SurfaceContext } from "../surface.js";

async function setup(maxChars = 100_000) {
  const { store: outputs } = await tempStore();
  const log = Array.from({ length: 2000 }, (_, i) => `2026-03-14 INFO request ${i} ok`);
  log[1234] = "2026-03-14 WARN kernel BOOT-MARKER-ALPHA=7f3a9c set";
  const first = await outputs.put(origin("shell__run"), `${log.join("\n")}\n`);
  const second = await outputs.put(
    origin("fs__read_file"),
    "notes\nサーバーの起動マーカーはBOOT-7です。\n",
  );
  const surface = createGetToolOutputSurface({ synopsisLines: 5 });
  const context = (scope: ReadScope = SCOPE): SurfaceContext => ({
    outputs,
    scope,
    maxChars,
    tokenizer: "o200k_base",
    outputOfToolCall: async () => undefined,
  });
  const call = (args: Record<string, unknown>, scope?: ReadScope) =>
    surface.execute("get_tool_output", args, context(scope));
  return { first, second, call };
}

describe('get_tool_output(mode="search")', () => {
  it("answers the best lines of one output as LINE: text, with the words and their counts", async () => {
    const { first, call } = await setup();
    const answer = await call({ id: first.id, mode: "search", query: "boot marker" });
    expect(answer).toMatchObject({ isError: false, outputId: first.id });
    expect(answer.text).toBe(
      `[${first.id} search "boot marker": 1 matching line (lines holding each word: boot: 1, marker: 1); showing the best 1 · LINE: text]\n` +
        "1235: 2026-03-14 WARN kernel BOOT-MARKER-ALPHA=7f3a9c set",
    );
  });

  it("without an id searches every output of the session, naming the output of each line", async () => {
    const { first, second, call } = await setup();
    const answer = await call({ mode: "search", query: "起動マーカー boot" });
    expect(answer.isError).toBe(false);
    expect(answer.text).toContain("[search of this session's 2 outputs for");
    expect(answer.text).toContain(
      `[${second.id} fs__read_file]\n2: サーバーの起動マーカーはBOOT-7です。`,
    );
    expect(answer.text).toContain(`[${first.id} shell__run]\n1235: `);
    // Best first across outputs: the line with every word comes before the one with "boot" alone.
    expect(answer.text.indexOf(second.id)).toBeLessThan(answer.text.indexOf(first.id));
  });

  it("says what is missing: a query, or an id for the other modes", async () => {
    const { first, call } = await setup();
    const noQuery = await call({ id: first.id, mode: "search", pattern: "boot marker" });
    expect(noQuery.isError).toBe(true);
    expect(noQuery.text).toContain('mode="search" needs query');
    expect(noQuery.text).toContain(
      `get_tool_output(id="${first.id}", mode="search", query="boot marker")`,
    );
    const noId = await call({ mode: "grep", pattern: "boot" });
    expect(noId.isError).toBe(true);
    expect(noId.text).toContain('mode="grep" needs id');
    const stop = await call({ mode: "search", query: "what is the" });
    expect(stop.isError).toBe(true);
    expect(stop.text).toContain("INVALID_ARGUMENT");
    expect(stop.text).toContain("query");
    const admin = await call({ mode: "search", query: "boot" }, { allSessions: true });
    expect(admin.isError).toBe(true);
    expect(admin.text).toContain("give the id of an output");
  });

  it("fits the budget, says how many lines did not fit, and notes left-out words", async () => {
    const { first, call } = await setup(120);
    const answer = await call({
      id: first.id,
      mode: "search",
      query: "what is request 7 and request 8",
      max_results: 5,
    });
    expect(answer.text).toContain("[common words left out: what, is, and]");
    expect(answer.text).toMatch(/\[\d+ lines? more ranked below did not fit this answer/);
    const grep = await call({ id: first.id, mode: "grep", pattern: "BOOT", max_results: 3 });
    expect(grep.text).toContain(
      '[Not used in mode="grep": max_results, which belongs to mode="search"',
    );
  });

  it("shows each ranked line inside its record: the list item, the JSON object, the CSV row", async () => {
    const { store: outputs } = await tempStore();
    const pods = Array.from({ length: 40 }, (_, i) =>
      [
        "- metadata:",
        `    name: web-${i}`,
        "  status:",
        `    reason: ${i === 23 ? "OOMKilled" : "Completed"}`,
        `    image: registry.example/web:${i}`,
      ].join("\n"),
    ).join("\n");
    const orders = JSON.stringify(
      {
        data: Array.from({ length: 30 }, (_, i) => ({
          id: 1000 + i,
          shipping: { tracking: `T${i}X` },
        })),
      },
      null,
      2,
    );
    const rows = ["id,city,weight", ...Array.from({ length: 50 }, (_, i) => `S${i},City${i},${i}`)];
    const yaml = await outputs.put(origin("k8s__get"), `${pods}\n`);
    const json = await outputs.put(origin("api__orders"), orders);
    const csv = await outputs.put(origin("fs__read"), `${rows.join("\n")}\n`);
    const surface = createGetToolOutputSurface({ synopsisLines: 5 });
    const context: SurfaceContext = {
      outputs,
      scope: SCOPE,
      maxChars: 100_000,
      tokenizer: "o200k_base",
      outputOfToolCall: async () => undefined,
    };
    const search = (id: string, query: string, max_results = 1) =>
      surface.execute("get_tool_output", { id, mode: "search", query, max_results }, context);

    // The pod's name and image are lines away from the word searched for, in the same item.
    const pod = await search(yaml.id, "oomkilled");
    expect(pod.text).toContain("showing the best 1 in 1 record");
    expect(pod.text).toContain("[record: list item, lines 116-120]");
    expect(pod.text).toContain("117-     name: web-23\n118-   status:\n119:     reason: OOMKilled");
    expect(pod.text).toContain("120-     image: registry.example/web:23");

    const order = await search(json.id, "1017");
    expect(order.text).toContain("[record: JSON object,");
    expect(order.text).toContain(`106:       "id": 1017,`);
    expect(order.text).toContain('"tracking": "T17X"');
    expect(order.text).not.toContain("T16X");

    // Minified: one long line; the excerpt's record is the object inside it.
    const minified = await outputs.put(origin("api__orders"), JSON.stringify(JSON.parse(orders)));
    const inLine = await search(minified.id, "1017");
    expect(inLine.text).toMatch(/\[record: JSON object, line 1, chars [\d,]+-[\d,]+\]/);
    expect(inLine.text).toContain('1: {"id":1017,"shipping":{"tracking":"T17X"}}');
    // At either end of the line the excerpt is pushed inside it; the record is still the word's.
    for (const [query, object] of [
      ["1000", '1: {"id":1000,"shipping":{"tracking":"T0X"}}'],
      ["1029", '1: {"id":1029,"shipping":{"tracking":"T29X"}}'],
    ] as const) {
      const atEnd = await search(minified.id, query);
      expect(atEnd.text).toContain(object);
    }

    const row = await search(csv.id, "City31");
    expect(row.text).toContain("[record: CSV row, line 33; names from the header, line 1]");
    expect(row.text).toContain("33: id=S31, city=City31, weight=31");
  });

  it("shows a record once however many of its lines rank, and bare lines as LINE: text", async () => {
    const { store: outputs } = await tempStore();
    const items = Array.from({ length: 20 }, (_, i) =>
      [
        `- name: job-${i}`,
        `  owner: team-${i % 2 === 0 ? "red" : "blue"}`,
        `  note: run ${i}`,
      ].join("\n"),
    ).join("\n");
    const yaml = await outputs.put(origin("ci__jobs"), `${items}\n`);
    const surface = createGetToolOutputSurface({ synopsisLines: 5 });
    const answer = await surface.execute(
      "get_tool_output",
      { id: yaml.id, mode: "search", query: "job-7 run 7", max_results: 2 },
      {
        outputs,
        scope: SCOPE,
        maxChars: 100_000,
        tokenizer: "o200k_base",
        outputOfToolCall: async () => undefined,
      },
    );
    expect(answer.text).toContain("showing the best 2 in 1 record");
    expect(answer.text.match(/\[record: /g)).toHaveLength(1);
    expect(answer.text).toContain("22: - name: job-7\n23-   owner: team-blue\n24:   note: run 7");
  });
});
