/** The `spillway outputs …` subcommands: flags, help text and the handler each one runs. */
import { type Command, Option } from "commander";
import { SEARCH_RANKINGS } from "../retrieval/search-corpus.js";
import { contextOf } from "./context.js";
import { runDemo } from "./demo.js";
import { exportOutput } from "./export-command.js";
import { grepCommand } from "./grep-command.js";
import { listOutputs, showOutput, verifyOutput } from "./inspect-commands.js";
import { jsonCommand } from "./json-command.js";
import { integer, jsonText, lineRange } from "./option-parsers.js";
import { pageCommand } from "./page-command.js";
import { DEFAULT_PUT_SESSION, DEFAULT_PUT_TOOL, putOutput } from "./put-command.js";
import { searchCommand } from "./search-command.js";
import { sliceOutput } from "./slice-command.js";

/** Runs a handler and keeps its exit code (errors propagate to main). */
async function run(work: Promise<number>): Promise<void> {
  const code = await work;
  if (code !== 0) process.exitCode = code;
}

const N = "<n>";

export function addOutputsCommand(program: Command): void {
  const outputs = program
    .command("outputs")
    .description("store tool outputs and read them back exactly (slice, grep, search, page, json)");

  outputs
    .command("list")
    .description("list stored outputs, newest first")
    .option("--session <id>", "only outputs of this session")
    .addOption(
      new Option("--status <status>", "only outputs with this status").choices([
        "running",
        "ready",
        "failed",
      ]),
    )
    .option(`--limit ${N}`, "show at most n outputs (default 100)", integer(1, 1_000_000))
    .option(
      `--offset ${N}`,
      "skip the n newest (to page through a long list)",
      integer(0, Number.MAX_SAFE_INTEGER),
    )
    .action((options, command: Command) => run(listOutputs(contextOf(command), options)));

  outputs
    .command("show")
    .description("show an output's record and a synopsis of its content")
    .argument("<id>", "output id (out_…)")
    .action((id: string, _options, command: Command) => run(showOutput(contextOf(command), id)));

  outputs
    .command("put")
    .description("store a file, or stdin, as a tool output; prints the new id")
    .argument("[file]", "file to store (default: stdin)")
    .option("--session <id>", "session id", DEFAULT_PUT_SESSION)
    .option("--tool <name>", "tool name", DEFAULT_PUT_TOOL)
    .option("--args <json>", "the tool's arguments as JSON text", jsonText, "{}")
    .option("--tool-call-id <id>", "the tool call's id")
    .option("--binary", "store as bytes (kind binary), without decoding")
    .option("--media-type <type>", "media type of binary content, e.g. image/png")
    .option(
      `--max-output-bytes ${N}`,
      "refuse content larger than n bytes, storing nothing (default 1 GiB)",
      integer(1),
    )
    .option(
      `--max-session-bytes ${N}`,
      "refuse content that would take the session's outputs past n bytes in total",
      integer(1),
    )
    .action((file: string | undefined, options, command: Command) =>
      run(putOutput(contextOf(command), file, options)),
    );

  outputs
    .command("slice")
    .description(
      "print part of an output by characters, lines or anchor (provenance header on stderr)",
    )
    .argument("<id>", "output id")
    .option(`--start ${N}`, "first character (0-based; bytes for binary)", integer(0))
    .option(`--length ${N}`, "number of characters (default 4000)", integer(0))
    .option("--lines <A:B>", "lines A to B (1-based, inclusive)", lineRange)
    .option(`--line-start ${N}`, "first line (1-based)", integer(1))
    .option(`--line-end ${N}`, "last line (inclusive; default --line-start)", integer(1))
    .option("--anchor <text>", "literal text to center the slice on")
    .option(`--window ${N}`, "characters on each side of the anchor (default 1000)", integer(0))
    .option(`--match-index ${N}`, "which occurrence of the anchor (0-based)", integer(0))
    .action((id: string, options, command: Command) =>
      run(sliceOutput(contextOf(command), id, options)),
    );

  outputs
    .command("grep")
    .description("search an output line by line: LINE:COL: text (footer on stderr)")
    .argument("<id>", "output id")
    .argument("<pattern>", "literal text, or a regular expression with --regex")
    .option("--regex", "treat the pattern as a JavaScript regular expression")
    .option("-i, --ignore-case", "ignore case")
    .option(`-C, --context ${N}`, "lines of context around each match (0-20)", integer(0, 20))
    .option(`--max ${N}`, "matching lines to show (1-1000, default 50)", integer(1, 1000))
    .option(`--cursor ${N}`, "continue from a previous search's next cursor", integer(0))
    .option(
      `--timeout-ms ${N}`,
      "deadline of the whole regex search in ms (default 5000 + 25 per MB)",
      integer(1, 600_000),
    )
    .option(
      "--record",
      "show each match inside its record: the JSON object, YAML item, CSV row or log entry around it",
    )
    .action((id: string, pattern: string, options, command: Command) =>
      run(grepCommand(contextOf(command), id, pattern, options)),
    );

  outputs
    .command("search")
    .description(
      "the lines that best match some words, best first: SCORE  LINE: text (notes on stderr)",
    )
    .argument("<id>", "output id (with --session: the words to find)")
    .argument("[query]", 'the words to find, any language, e.g. "boot marker"')
    .option("--session <id>", "search every output of this session instead of one")
    .option(`--max ${N}`, "lines to show (1-100, default 10)", integer(1, 100))
    .addOption(
      new Option(
        "--ranking <ranking>",
        "bm25 (default), or coverage: lines holding the rarest words first, equal lines in the output's order",
      ).choices(SEARCH_RANKINGS),
    )
    .option("--latest-first", "equal lines from the end of the output (the latest first)")
    .option(
      `--timeout-ms ${N}`,
      "deadline of the whole search in ms (default 5000 + 25 per MB)",
      integer(1, 600_000),
    )
    .action((first: string, second: string | undefined, options, command: Command) =>
      run(searchCommand(contextOf(command), first, second, options)),
    );

  outputs
    .command("page")
    .description("print one page of an output (provenance and next cursor on stderr)")
    .argument("<id>", "output id")
    .option(`--cursor ${N}`, "where the page starts: 0 or a previous next cursor", integer(0))
    .addOption(
      new Option(`--chars ${N}`, "page size in characters (default 16000)")
        .argParser(integer(1))
        .conflicts("tokens"),
    )
    .addOption(
      new Option(`--tokens ${N}`, "page size in tokens (exact count)").argParser(integer(1)),
    )
    .action((id: string, options, command: Command) =>
      run(pageCommand(contextOf(command), id, options)),
    );

  outputs
    .command("json")
    .description("outline a JSON/NDJSON output, or query it with JSONPath")
    .argument("<id>", "output id")
    .argument("[query]", "JSONPath, e.g. '$.items[*].id' (omit for the outline)")
    .option("--outline", "print the document's shape (the default without a query)")
    .option(`--offset ${N}`, "skip this many matches (a previous next offset)", integer(0))
    .option(`--max ${N}`, "matches to show (1-10000, default 50)", integer(1, 10_000))
    .option(`--timeout-ms ${N}`, "deadline, parsing included (default 30000)", integer(1, 600_000))
    .option(
      `--max-memory-mb ${N}`,
      "heap limit of the parse and query, in MiB (default 2048)",
      integer(16, 65_536),
    )
    .action((id: string, query: string | undefined, options, command: Command) =>
      run(jsonCommand(contextOf(command), id, query, options)),
    );

  outputs
    .command("export")
    .description("write the raw stored bytes to stdout, checking their SHA-256")
    .argument("<id>", "output id")
    .action((id: string, _options, command: Command) => run(exportOutput(contextOf(command), id)));

  outputs
    .command("verify")
    .description("re-hash an output's stored bytes and compare with its record")
    .argument("<id>", "output id")
    .action((id: string, _options, command: Command) => run(verifyOutput(contextOf(command), id)));

  outputs
    .command("demo")
    .description("store a generated N MB log and read it back by grep, slice, page and json")
    .option(`--size-mb ${N}`, "size of the generated log in MB (1-1000)", integer(1, 1000), 50)
    .action((options: { sizeMb: number }, command: Command) =>
      run(runDemo(contextOf(command), options.sizeMb)),
    );
}
