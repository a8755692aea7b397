/**
 * A search's equal lines are ordered by how much of the query their records hold (SW-39); only
 * ties move.
 */
import { describe, expect, it } from "vitest";
import { origin, SCOPE, tempStore } from "../../../test/helpers/temp-store.js";
import type { OutputStore } from "../../store/output-store.js";
import { createGetToolOutputSurface } from "../get-tool-output.js";

interface Pod {
  readonly app: string;
  readonly node: string;
  readonly region?: string;
  readonly tier?: string;
}

function podList(pods: readonly Pod[]): string {
  return `${pods
    .map((pod, i) =>
      [
        `- name: ${pod.app}-${i}`,
        `  app: ${pod.app}`,
        ...(pod.region ? [`  region: ${pod.region}`] : []),
        ...(pod.tier ? [`  tier: ${pod.tier}`] : []),
        `  nodeName: ${pod.node}`,
        `  podIP: 10.244.${i}.7`,
      ].join("\n"),
    )
    .join("\n")}\n`;
}

function searcher(outputs: OutputStore) {
  const surface = createGetToolOutputSurface({ synopsisLines: 5 });
  return (id: string, query: string, max_results?: number) =>
    surface.execute(
      "get_tool_output",
      { id, mode: "search", query, ...(max_results ? { max_results } : {}) },
      {
        outputs,
        scope: SCOPE,
        maxChars: 100_000,
        tokenizer: "o200k_base",
        outputOfToolCall: async () => undefined,
      },
    );
}

describe("equal lines in search mode", () => {
  it("shows first the record that holds the query's other words, past the lines asked for", async () => {
    const { store: outputs } = await tempStore();
    // Fourteen pods on node-kc; of the three billing pods, the one on node-kc is its 11th.
    const target = 30;
    const pods: Pod[] = Array.from({ length: 40 }, (_, i) => ({
      app: [4, 8, target].includes(i) ? "billing" : `web${i}`,
      node: i % 3 === 0 ? "node-kc" : `node-${i}`,
    }));
    const yaml = await outputs.put(origin("k8s__get"), podList(pods));
    const answer = await searcher(outputs)(yaml.id, "node-kc podIP app billing", 1);
    expect(answer.isError).toBe(false);
    expect(answer.text).toContain("showing the best 1 in 1 record");
    expect(answer.text).toContain(`- name: billing-${target}\n`);
    expect(answer.text).toContain(`podIP: 10.244.${target}.7`);
    // One search, one read.
    expect((await outputs.get(yaml.id, SCOPE)).readCount).toBe(1);
  });

  it("never lets a record's words outrank a line that scores higher by itself", async () => {
    const { store: outputs } = await tempStore();
    // The rare word `node-zz` is on one line of a record that holds nothing else of the query;
    // another record holds billing, eu and gold, each common, each on a line of its own.
    const pods: Pod[] = Array.from({ length: 30 }, (_, i) => ({
      app: i % 2 === 0 ? "billing" : "web",
      node: i === 17 ? "node-zz" : "node-a",
      region: i % 2 === 0 ? "eu" : "us",
      tier: i % 2 === 0 ? "gold" : "silver",
    }));
    const yaml = await outputs.put(origin("k8s__get"), podList(pods));
    const answer = await searcher(outputs)(yaml.id, "zz billing eu gold", 1);
    expect(answer.text).toContain("- name: web-17\n");
  });

  it("keeps the order of the text between records that hold as much", async () => {
    const { store: outputs } = await tempStore();
    const pods: Pod[] = Array.from({ length: 10 }, () => ({ app: "web", node: "node-a" }));
    const yaml = await outputs.put(origin("k8s__get"), podList(pods));
    const answer = await searcher(outputs)(yaml.id, "node-a", 3);
    const names = [...answer.text.matchAll(/- name: (web-\d+)/g)].map((m) => m[1]);
    expect(names).toEqual(["web-0", "web-1", "web-2"]);
  });
});
