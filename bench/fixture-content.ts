/**
 * What the benchmark fixtures hold: spillway's one content generator (src/core/synthetic) per
 * kind, with a rare literal planted once near the middle.
 */
import type { GeneratedKind } from "../src/core/synthetic/generate.js";

/** A rare literal planted once near the middle of every fixture. */
export const NEEDLE = "NEEDLE-7f3a9c";

/** The needle's record in a log: an error line that names it. */
export const NEEDLE_LOG_LINE = `2026-03-14T09:26:41.118Z ERROR [billing] request_id=req_7f3a9c01 msg="invariant broken: ${NEEDLE} ledger mismatch"`;

export const FIXTURE_KINDS = ["log", "json-pretty", "json-min", "csv", "cjk"] as const;
export type FixtureKind = (typeof FIXTURE_KINDS)[number] | "code";

/** The generator kind behind each fixture kind. */
export const GENERATOR_KIND: Record<FixtureKind, GeneratedKind> = {
  log: "log",
  "json-pretty": "json",
  "json-min": "json-min",
  csv: "csv",
  cjk: "cjk",
  code: "code",
};

/** The text planted as the needle in a fixture of `kind`. */
export function needleText(kind: FixtureKind): string {
  return kind === "log" ? NEEDLE_LOG_LINE : `audit ${NEEDLE} flagged`;
}

export const FIXTURE_EXTENSIONS: Record<FixtureKind, string> = {
  log: "log",
  "json-pretty": "json",
  "json-min": "json",
  csv: "csv",
  cjk: "txt",
  code: "ts",
};
