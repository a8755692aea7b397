/**
 * `spillway run --help`'s text after the options: how settings resolve, where output goes, the
 * preflight check, signals and exit codes, examples.
 */
export const RUN_HELP_AFTER = [
  "",
  "Settings: a flag wins over the agent's frontmatter, which wins over the config file's",
  "defaults, then SPILLWAY_MODEL (models only), then the built-in default. With --resume, the",
  "session keeps the settings it was started with, except the flags given again (e.g. a new",
  "--model after the first one went down).",
  "",
  "Output: the final report alone on stdout; progress and a summary on stderr (a live status",
  "line on a terminal, one line per event otherwise). With --json: each event as one JSON",
  'object per line on stdout (with its "depth"; sub-agents > 0), then {"type":"result", ...};',
  'an error is one {"type":"error", ...} line; a CLI warning {"type":"cli.warning", ...}.',
  "",
  "Before starting, the run checks that some model of the list is usable (a local server",
  "answers within 2 s; an API key variable is set) and otherwise exits 1 saying how to",
  "configure one. --no-preflight skips the check.",
  "",
  "Ctrl-C stops the run: the session is recorded as aborted and the exit code is 130 (a",
  "second Ctrl-C quits at once). Continue it with: spillway run --resume <session-id> [prompt]",
  "SIGTERM stops gracefully: the agent's next turn is its last and it reports with what it has",
  "(a second SIGTERM aborts).",
  "",
  "Exit codes: 0 completed; 1 failed (no usable model, turns used up without a report, ...)",
  "or another error; 2 usage error; 130 aborted by Ctrl-C.",
  "",
  "Examples:",
  '  spillway run agents/triage.md "Why did checkout fail at 09:26?"',
  "  git diff | spillway run agents/review.md --model openai/gpt-4.1,ollama/qwen2.5:7b > review.md",
  '  spillway run --resume ses_… "Now check the payment service too."',
].join("\n");
