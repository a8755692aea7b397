/**
 * `spillway run <agent.md> [prompt]`: runs an agent to its final report. The report goes to
 * stdout (alone, so it can be piped); progress and a summary go to stderr (or, with --json,
 * every event as a JSON line on stdout and a final `{"type":"result", …}` line).
 */
import { performance } from "node:perf_hooks";
import { type Command, Option } from "commander";
import { runAgent } from "../agent/run-agent.js";
import { planRun, type RunPlan, resumePlan, storedPlan } from "../agent/run-settings.js";
import type { AgentRunResult, RunAgentOptions } from "../agent/run-types.js";
import {
  ASYNC_READY_MESSAGES,
  COMPACTION_MODELS,
  TEXT_REPLIES,
  TOOL_OUTPUT_SURFACES,
} from "../config/index.js";
import { fencedStores } from "../store/fenced-history.js";
import type { SessionRecord } from "../store/history.js";
import { openStores } from "../store/open-stores.js";
import type { HeldLease } from "../store/session-leases.js";
import type { SpillwayStores } from "../store/stores.js";
import { takeRunLease } from "./cli-lease.js";
import { type CliContext, contextOf } from "./context.js";
import { EXIT_ABORTED, EXIT_ERROR, EXIT_OK } from "./errors.js";
import { pullMissingLocalModel } from "./first-use-pull.js";
import { integer, modelRefs, positiveNumber } from "./option-parsers.js";
import { preflightModels } from "./preflight.js";
import { RUN_HELP_AFTER } from "./run-help.js";
import { cliSettingsOf, type RunFlags, readPrompt, runTarget } from "./run-options.js";
import { type ProgressMode, RunProgress } from "./run-progress.js";
import { resumeCommand, summaryLines } from "./run-summary.js";

function progressMode(context: CliContext, flags: RunFlags): ProgressMode {
  if (flags.quiet) return "quiet";
  if (context.json) return "json";
  return process.stderr.isTTY ? "tty" : "lines";
}

/** The plan the run will use: the stored one when resuming, else resolved like runAgent does. */
async function planOf(
  session: SessionRecord | null,
  options: RunAgentOptions,
  stores: SpillwayStores,
): Promise<RunPlan> {
  if (session) {
    return resumePlan(storedPlan(session.settings, session.id), options.settings ?? {}, {
      home: stores.home,
      ...(options.configPath ? { configPath: options.configPath } : {}),
    });
  }
  return planRun({
    agent: options.agent ?? "",
    ...(options.settings ? { cli: options.settings } : {}),
    home: stores.home,
    ...(options.configPath ? { configPath: options.configPath } : {}),
  });
}

/**
 * Ctrl-C: the first aborts the run through `controller` (the session is recorded as
 * aborted); a second quits at once. SIGTERM asks a graceful stop through `stop` (the agent's
 * next turn is its last; background tools go on meanwhile); a second SIGTERM aborts. Returns
 * the function that removes the handlers.
 */
function onInterrupt(
  controller: AbortController,
  stop: AbortController,
  tell: (line: string) => void,
): () => void {
  const abort = () => {
    if (controller.signal.aborted) process.exit(EXIT_ABORTED);
    tell(
      "interrupted: stopping the run and recording the session as aborted (Ctrl-C again to quit at once)",
    );
    controller.abort(new Error("interrupted (SIGINT)"));
  };
  const terminate = () => {
    if (stop.signal.aborted) {
      if (!controller.signal.aborted) tell("terminated again: aborting the run");
      controller.abort(new Error("terminated (SIGTERM)"));
      return;
    }
    tell("terminated: the agent's next turn is its last (SIGTERM again aborts at once)");
    stop.abort(new Error("stop requested (SIGTERM)"));
  };
  process.on("SIGINT", abort);
  process.on("SIGTERM", terminate);
  return () => {
    process.off("SIGINT", abort);
    process.off("SIGTERM", terminate);
  };
}

/** Prints the outcome and returns the exit code: 0 completed, 1 failed, 130 aborted. */
async function finish(
  context: CliContext,
  progress: RunProgress,
  result: AgentRunResult,
  elapsedMs: number,
): Promise<number> {
  const code =
    result.status === "completed"
      ? EXIT_OK
      : result.status === "aborted"
        ? EXIT_ABORTED
        : EXIT_ERROR;
  if (context.json) {
    progress.writeJson({ type: "result", ...result });
    await progress.stop();
    return code;
  }
  const printed = result.status === "completed" && result.report !== null;
  if (printed && result.report) {
    await context.out.writeText(
      result.report.endsWith("\n") || context.out.isTerminal ? result.report : `${result.report}\n`,
    );
  }
  const home = context.explicitHome ? context.home : undefined;
  if (progress.mode !== "quiet") {
    for (const line of summaryLines(result, {
      elapsedMs,
      reportPrinted: printed,
      ...(home ? { home } : {}),
    }))
      context.out.note(line);
  } else if (result.status !== "completed") {
    context.out.note(
      `${result.status}: ${result.error ?? "no final report"} (session ${result.sessionId}; ` +
        `resume: ${resumeCommand(result.sessionId, home)})`,
    );
  }
  return code;
}

/** The `run` handler. */
export async function runCommand(
  context: CliContext,
  first: string | undefined,
  second: string | undefined,
  flags: RunFlags,
): Promise<number> {
  const started = performance.now();
  // Usage errors come before anything is opened; a resume needs the session first.
  const early = flags.resume === undefined ? runTarget(first, second, flags, null) : undefined;
  const earlyPrompt = early ? await readPrompt(early.prompt, false) : undefined;
  const stores = await openStores({
    home: context.home,
    store: context.store,
    ...(flags.maxSessionBytes !== undefined ? { maxSessionBytes: flags.maxSessionBytes } : {}),
  });
  const progress = new RunProgress(progressMode(context, flags), context.out);
  let lease: HeldLease | undefined;
  try {
    // Never continue a session another process runs (a serve worker on the same store).
    if (flags.resume !== undefined) lease = await takeRunLease(stores.leases, flags.resume);
    const session =
      flags.resume !== undefined ? await stores.history.getSession(flags.resume) : null;
    if (session?.status === "running") {
      progress.warn(
        `session ${session.id} is marked running: its run crashed or is still going in another ` +
          "process; resuming repairs its unfinished tool calls as aborted",
      );
    }
    const target = early ?? runTarget(first, second, flags, session?.agentPath ?? null);
    const prompt = early ? earlyPrompt : await readPrompt(target.prompt, true);
    const settings = cliSettingsOf(flags);
    const options: RunAgentOptions = {
      ...(target.agent !== undefined ? { agent: target.agent } : {}),
      ...(prompt !== undefined ? { prompt } : {}),
      ...(Object.keys(settings).length > 0 ? { settings } : {}),
      ...(flags.config !== undefined ? { configPath: flags.config } : {}),
      ...(flags.resume !== undefined ? { resume: flags.resume } : {}),
    };
    const plan = await planOf(session, options, stores);
    if (flags.preflight !== false) {
      await pullMissingLocalModel(context, plan.settings.models, (line) => progress.warn(line));
      const warnings = await preflightModels(
        plan.settings.models,
        plan.sources.models,
        plan.configPath,
      );
      for (const warning of warnings) progress.warn(warning);
    }
    const controller = new AbortController();
    const tell = (line: string) =>
      progress.mode === "tty" || progress.mode === "lines"
        ? progress.permanent(line)
        : context.out.note(line);
    const stop = new AbortController();
    const removeHandler = onInterrupt(controller, stop, tell);
    // Nobody reads the events any more (e.g. `| head`): stop spending on the run.
    progress.onWriteError = (error) => controller.abort(error);
    let result: AgentRunResult;
    try {
      result = await runAgent({
        ...options,
        // A run that lost its lease (another process took the session) stops writing history.
        stores: lease ? fencedStores(stores, lease.lost) : stores,
        signal: controller.signal,
        stop: stop.signal,
        onEvent: (event) => progress.handle(event),
      });
    } finally {
      removeHandler();
    }
    await progress.stop();
    return await finish(context, progress, result, performance.now() - started);
  } finally {
    await progress.stop();
    await lease?.release();
    await stores.close();
  }
}

const N = "<n>";

/** Registers `spillway run`. */
export function addRunCommand(program: Command): void {
  program
    .command("run")
    .description("run an agent (a Markdown file) on a task; the final report goes to stdout")
    .argument("[agent]", "the agent file: Markdown with YAML frontmatter (optional with --resume)")
    .argument(
      "[prompt]",
      'the task; default: stdin when it is not a terminal ("-" reads stdin too)',
    )
    .option(
      "--model <ref>",
      "model ref, e.g. openai/gpt-4.1; repeat it or separate refs with commas for an ordered fallback list",
      modelRefs,
    )
    .option(
      "--extraction-model <ref>",
      "model ref(s) for extraction (model-driven reads of stored outputs); default the model that served the turn",
      modelRefs,
    )
    .option(
      `--max-turns ${N}`,
      "turns before the agent must report (1-1000, default 20)",
      integer(1, 1000),
    )
    .option(
      `--tool-response-max-bytes ${N}`,
      "largest tool result shown inline; larger ones are shown by handle (>= 256, default 12288)",
      integer(256),
    )
    .option(`--tool-concurrency ${N}`, "tool calls run at once (1-64, default 4)", integer(1, 64))
    .option(
      "--tool-timeout <secs>",
      "seconds a tool call may take (> 0, default 300)",
      positiveNumber(),
    )
    .addOption(
      new Option(
        "--surface <name>",
        "the model-facing tools over stored outputs: get_tool_output (default); tool_output or get_continuation answer with compatibility texts",
      ).choices(TOOL_OUTPUT_SURFACES),
    )
    .option(
      "--no-tool-output",
      "legacy mode: show large outputs truncated (head and tail, marked) instead of by handle",
    )
    .option(
      `--continuation-chars ${N}`,
      "characters per get_continuation chunk (>= 100, default 4000)",
      integer(100),
    )
    .option(
      `--context-window ${N}`,
      "context window in tokens, for every model of the run",
      integer(1),
    )
    .option(
      `--max-output-tokens ${N}`,
      "tokens a model reply may take (default 4096; 1024 for local/ models)",
      integer(1),
    )
    .option("--stream", "call the provider's streaming API (the report is printed when complete)")
    .option(
      "--async",
      "async tools: slow tools go on in the background, large outputs are announced ready (default)",
    )
    .option(
      "--no-async",
      "no async tools: every tool call blocks until it ends (large outputs still get handles)",
    )
    .option(
      "--helper-tools",
      "list agent__task_status and agent__batch (off by default: neither reads a tool result)",
    )
    .option("--no-helper-tools", "leave agent__task_status and agent__batch out (the default)")
    .addOption(
      new Option(
        "--text-replies <mode>",
        "a text reply before the last turn: final (the answer), confirm (the next call requires a tool call; a second text is the answer), or none (every call requires a tool call; a text reply that comes anyway is handled as with confirm); default none for local/ models, final otherwise",
      ).choices(TEXT_REPLIES),
    )
    .option(
      "--async-timeout <secs>",
      "seconds before a running tool goes on in the background (> 0, default 5)",
      positiveNumber(),
    )
    .option(
      `--async-token-threshold ${N}`,
      "tokens over which a finished output is announced ready instead of shown (default 10000)",
      integer(0),
    )
    .addOption(
      new Option(
        "--async-ready-message <kind>",
        "what an output over the threshold shows: the handle message (handle, the default) or a short ready text with a menu of what to do next (ready-menu)",
      ).choices(ASYNC_READY_MESSAGES),
    )
    .option(
      `--async-max-running ${N}`,
      "background tools at once per session; async sub-agents beyond it queue (1-64, default 4)",
      integer(1, 64),
    )
    .option(
      "--no-compaction",
      "never summarize older turns; over the hard limit, older results are shown by handle",
    )
    .option(
      "--compaction-warn <fraction>",
      "context use that raises the warn level (0-1 of the window less the reply's tokens; default 0.75)",
      positiveNumber(1),
    )
    .option(
      "--compaction-at <fraction>",
      "context use at which older whole turns are summarized (default 0.9)",
      positiveNumber(1),
    )
    .option(
      "--compaction-hard <fraction>",
      "context use above which older results are shown by handle (default 0.95)",
      positiveNumber(1),
    )
    .addOption(
      new Option(
        "--compaction-model <which>",
        "who writes summaries: the serving model, or the extraction model (default serving)",
      ).choices(COMPACTION_MODELS),
    )
    .option(
      `--summary-max-tokens ${N}`,
      "largest compaction summary, in tokens (>= 64, default 2048)",
      integer(64),
    )
    .option(
      "--config <path>",
      "use this config file instead of the lookup (./spillway.config.json|yaml, then the home's)",
    )
    .option(
      "--resume <session-id>",
      "continue a session from its canonical history (with its stored settings)",
    )
    .option(
      "--no-preflight",
      "skip the check that some model of the list is reachable before starting",
    )
    .option(
      "--quiet",
      "no progress and no summary: only the report (and one line on stderr if the run fails)",
    )
    .option(
      `--max-session-bytes ${N}`,
      "most bytes the session's stored outputs may take; a result past it is an error to the model",
      integer(1),
    )
    .addHelpText("after", RUN_HELP_AFTER)
    .action(
      (first: string | undefined, second: string | undefined, flags: RunFlags, command: Command) =>
        runCommand(contextOf(command), first, second, flags).then((code) => {
          if (code !== 0) process.exitCode = code;
        }),
    );
}
