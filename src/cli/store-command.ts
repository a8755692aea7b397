/** `spillway store stats` and `spillway store gc`: what the store holds, and retention. */
import type { Command } from "commander";
import { InvalidArgumentError } from "../core/errors.js";
import { describeStore } from "../store/open-stores.js";
import {
  collectGarbage,
  type GcReport,
  type StoreStats,
  storeStats,
} from "../store/store-maintenance.js";
import { type CliContext, contextOf, withStores } from "./context.js";
import { EXIT_OK } from "./errors.js";
import { fields, formatBytes, formatCount, table } from "./format.js";
import { duration } from "./option-parsers.js";

const size = (t: { count: number; bytes: number }) =>
  `${formatCount(t.count)} (${formatBytes(t.bytes)})`;

function statsLines(stats: StoreStats): string[] {
  const { outputs, payloads } = stats;
  const lines = fields([
    ["home", stats.home],
    ["database", formatBytes(stats.databaseBytes)],
    [
      "outputs",
      `${formatCount(outputs.ready)} ready (${formatBytes(outputs.bytes)}), ${formatCount(outputs.running)} running, ${formatCount(outputs.failed)} failed`,
    ],
    [
      "sessions",
      `${formatCount(stats.sessions.total)} (${formatCount(stats.sessions.running)} running)`,
    ],
    ["payloads", `${size(payloads.file)} in blob files, ${size(payloads.inline)} inline`],
    ["unreferenced", `${size(stats.unreferencedPayloads)} payloads no output refers to`],
    ["orphan files", `${size(stats.orphanBlobFiles)} blob files without a record`],
    [
      "temp files",
      `${size(stats.tempFiles)}, ${formatCount(stats.tempFiles.stale)} with no running writer`,
    ],
  ]);
  if (stats.largestSessions.length > 0) {
    lines.push(
      "",
      ...table(stats.largestSessions, [
        { header: "SESSION", value: (s) => s.sessionId },
        { header: "OUTPUTS", value: (s) => formatCount(s.outputs), align: "right" },
        { header: "SIZE", value: (s) => formatBytes(s.bytes), align: "right" },
      ]),
    );
  }
  const reclaimable =
    stats.unreferencedPayloads.count + stats.orphanBlobFiles.count + stats.tempFiles.stale;
  if (reclaimable > 0) lines.push("", "# spillway store gc --dry-run shows what gc would remove");
  return lines;
}

function gcLines(report: GcReport): string[] {
  const verb = report.dryRun ? "would remove" : "removed";
  const { removed, kept } = report;
  return [
    `${report.dryRun ? "dry run: " : ""}${verb}:`,
    ...fields(
      [
        ["sessions", formatCount(removed.sessions)],
        ["outputs", size(removed.outputs)],
        ["payloads", size(removed.payloads)],
        ["blob files", size(removed.blobFiles)],
        ["temp files", size(removed.tempFiles)],
        ["cache entries", formatCount(removed.cacheEntries)],
      ],
      "  ",
    ),
    "kept:",
    ...fields(
      [
        ["live sessions", `${formatCount(kept.liveSessions)} (running, with their sub-agents)`],
        [
          "recent blob files",
          `${formatCount(kept.recentBlobFiles)} (younger than the grace period)`,
        ],
        ["live temp files", `${formatCount(kept.liveTempFiles)} (a running writer holds them)`],
      ],
      "  ",
    ),
  ];
}

/** stats and gc read SQLite's files; on PostgreSQL they would silently report the local home. */
function sqliteOnly(context: CliContext, command: string): void {
  if (context.store)
    throw new InvalidArgumentError(
      "--store",
      `spillway store ${command} works on the SQLite store in --home, not on PostgreSQL`,
      "no --store (and no SPILLWAY_STORE) for the SQLite store; on PostgreSQL use its own tools (psql, pg_dump, VACUUM) as docs/scale-out.md says",
    );
}

async function statsCommand(context: CliContext): Promise<number> {
  sqliteOnly(context, "stats");
  const stats = await storeStats({ home: context.home });
  if (context.json) await context.out.json(stats);
  else await context.out.lines(statsLines(stats));
  return EXIT_OK;
}

interface GcFlags {
  readonly dryRun?: boolean;
  readonly olderThan?: number;
  readonly grace?: number;
}

async function gcCommand(context: CliContext, flags: GcFlags): Promise<number> {
  sqliteOnly(context, "gc");
  const report = await collectGarbage({
    home: context.home,
    ...(flags.dryRun ? { dryRun: true } : {}),
    ...(flags.olderThan !== undefined ? { olderThanMs: flags.olderThan } : {}),
    ...(flags.grace !== undefined ? { graceMs: flags.grace } : {}),
  });
  if (context.json) await context.out.json(report);
  else await context.out.lines(gcLines(report));
  return EXIT_OK;
}

/** Brings the store's schema to this build's version (opening a store does it too) and says so. */
async function migrateCommand(context: CliContext): Promise<number> {
  const where = describeStore(context, context.home);
  await withStores(context, async () => {});
  if (context.json) await context.out.json({ store: where, migrated: true });
  else await context.out.lines([`store ${where}: schema up to date`]);
  return EXIT_OK;
}

export function addStoreCommand(program: Command): void {
  const store = program
    .command("store")
    .description("what the store holds, retention (gc), and its schema (migrate)");
  store
    .command("migrate")
    .description(
      "bring the store's schema (SQLite in --home, or PostgreSQL with --store) to this version; run before rolling out workers",
    )
    .action(async (_options, command: Command) => {
      process.exitCode = await migrateCommand(contextOf(command));
    });
  store
    .command("stats")
    .description("outputs, sessions, payloads and files in the store, and what gc would free")
    .action(async (_options, command: Command) => {
      process.exitCode = await statsCommand(contextOf(command));
    });
  store
    .command("gc")
    .description(
      "remove payloads no output refers to, orphan blob files and abandoned temp files; with --older-than, old sessions and outputs too (never a running session's)",
    )
    .option("--dry-run", "say what would be removed, remove nothing")
    .option(
      "--older-than <age>",
      "also remove sessions idle, and outputs outside any session created, longer ago than this (e.g. 30d, 12h)",
      duration,
    )
    .option(
      "--grace <age>",
      "keep unreferenced blob files younger than this (a writer may be about to record them; default 1m)",
      duration,
    )
    .action(async (options: GcFlags, command: Command) => {
      process.exitCode = await gcCommand(contextOf(command), options);
    });
}
