import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderCharts } from "../../eval/charts.js";
import type { Episode, PolicyName } from "../../eval/episode.js";
import type { Kind, Position, SizeLabel } from "../../eval/workload.js";

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** ~40 episodes: 3 policies × 2 sizes × 3 positions × 2 kinds, with plausible outcomes. */
function syntheticEpisodes(): Episode[] {
  const policies: PolicyName[] = ["raw", "codex-head-tail", "spillway"];
  const sizes: SizeLabel[] = ["50KB", "5MB"];
  const positions: Position[] = ["start", "middle", "regex-only"];
  const kinds: Kind[] = ["log", "csv"];
  const episodes: Episode[] = [];
  for (const policy of policies) {
    for (const size of sizes) {
      const big = size === "5MB";
      for (const position of positions) {
        for (const kind of kinds) {
          const truncated = policy === "codex-head-tail" && big;
          const overflow = policy === "raw" && big;
          const correct = !overflow && (!truncated || position === "start");
          const outputTokens = big ? 1_300_000 : 13_000;
          episodes.push({
            policy,
            taskId: `${kind}/${size}/${position}`,
            kind,
            size,
            position,
            correct,
            answer: correct ? "ANS-ABC123" : null,
            report: correct ? "The answer is ANS-ABC123." : null,
            invented: false,
            retrieved: policy === "spillway",
            requests: policy === "spillway" ? 3 : 2,
            tokensSent: policy === "spillway" ? 4_800 : truncated ? 11_000 : outputTokens + 1_000,
            tokensExposed: policy === "spillway" ? 1_800 : truncated ? 10_000 : outputTokens,
            outputTokens,
            toolCalls: policy === "spillway" ? 2 : 0,
            wallMs: 5,
            visibleFraction: policy === "spillway" ? null : truncated ? 0.008 : 1,
            lossless: policy === "spillway" ? true : null,
            failure: overflow ? "context overflow" : null,
          });
        }
      }
    }
  }
  return episodes;
}

async function checkPng(path: string): Promise<void> {
  const bytes = await readFile(path);
  expect([...bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
  // IHDR: the first chunk, its width a big-endian uint32 at byte 16.
  expect(bytes.subarray(12, 16).toString("latin1")).toBe("IHDR");
  const width = bytes.readUInt32BE(16);
  expect(width).toBeGreaterThanOrEqual(990);
  expect(width).toBeLessThanOrEqual(1010);
  expect(bytes.length).toBeGreaterThan(8_000);
}

describe("renderCharts", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "spillway-charts-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("renders every chart as a ~1000 px PNG with text", async () => {
    const episodes = syntheticEpisodes();
    expect(episodes.length).toBe(36);
    const charts = await renderCharts(episodes, join(dir, "run"));
    expect(charts.map((c) => c.file)).toEqual([
      "recall-by-size.png",
      "tokens-per-answer.png",
      "recall-by-position.png",
      "visible-fraction.png",
    ]);
    for (const chart of charts) {
      expect(chart.title.length).toBeGreaterThan(0);
      expect(chart.alt).toMatch(/\.$/);
      await checkPng(join(dir, "run", chart.file));
    }
  });

  it("gives the same bytes for the same episodes", async () => {
    const episodes = syntheticEpisodes();
    await renderCharts(episodes, join(dir, "a"));
    await renderCharts(episodes, join(dir, "b"));
    for (const file of ["recall-by-size.png", "tokens-per-answer.png"]) {
      const a = await readFile(join(dir, "a", file));
      const b = await readFile(join(dir, "b", file));
      expect(a.equals(b)).toBe(true);
    }
  });

  it("renders placeholders when there are no episodes", async () => {
    const charts = await renderCharts([], join(dir, "empty"));
    expect(charts).toHaveLength(4);
    for (const chart of charts) {
      const bytes = await readFile(join(dir, "empty", chart.file));
      expect([...bytes.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
      expect(bytes.readUInt32BE(16)).toBe(1000);
    }
  });
});
