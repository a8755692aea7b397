/**
 * `spillway run` input: its flags as CLI-level settings (the highest precedence), and the
 * positional arguments and prompt (from the argument, or from stdin when it is piped).
 */
import { resolve } from "node:path";
import type {
  AsyncReadyMessage,
  CliSettings,
  CompactionModel,
  ToolOutputSurface,
} from "../config/index.js";
import { UsageError } from "./errors.js";

/** The flags of `spillway run` as commander parses them. */
export interface RunFlags {
  readonly model?: readonly string[];
  readonly maxTurns?: number;
  readonly toolResponseMaxBytes?: number;
  readonly toolConcurrency?: number;
  readonly toolTimeout?: number;
  readonly surface?: ToolOutputSurface;
  /** False with --no-tool-output (commander's negated flag; true otherwise). */
  readonly toolOutput?: boolean;
  readonly continuationChars?: number;
  readonly contextWindow?: number;
  readonly maxOutputTokens?: number;
  readonly extractionModel?: readonly string[];
  readonly stream?: boolean;
  /** True with --async, false with --no-async, undefined when neither is given. */
  readonly async?: boolean;
  readonly asyncTimeout?: number;
  readonly asyncTokenThreshold?: number;
  readonly asyncMaxRunning?: number;
  /** False with --no-compaction (commander's negated flag; true otherwise). */
  readonly compaction?: boolean;
  readonly compactionWarn?: number;
  readonly compactionAt?: number;
  readonly compactionHard?: number;
  readonly compactionModel?: CompactionModel;
  readonly summaryMaxTokens?: number;
  readonly asyncReadyMessage?: AsyncReadyMessage;
  /** True with --helper-tools, false with --no-helper-tools. */
  readonly helperTools?: boolean;
  readonly textReplies?: "final" | "confirm" | "none";
  readonly config?: string;
  readonly resume?: string;
  /** False with --no-preflight. */
  readonly preflight?: boolean;
  readonly quiet?: boolean;
  /** Quota of the session's stored outputs, in bytes (a store option, not a setting). */
  readonly maxSessionBytes?: number;
}

/**
 * The flags as CLI-level settings (only the ones given, so lower levels still apply).
 *
 * @example
 * cliSettingsOf({ maxTurns: 8, toolOutput: false }); // { maxTurns: 8, toolOutput: { enabled: false } }
 */
export function cliSettingsOf(flags: RunFlags): CliSettings {
  const toolOutput = {
    ...(flags.toolOutput === false ? { enabled: false } : {}),
    ...(flags.surface !== undefined ? { surface: flags.surface } : {}),
    ...(flags.continuationChars !== undefined
      ? { continuationChars: flags.continuationChars }
      : {}),
  };
  const compaction = {
    ...(flags.compaction === false ? { enabled: false } : {}),
    ...(flags.compactionWarn !== undefined ? { warn: flags.compactionWarn } : {}),
    ...(flags.compactionAt !== undefined ? { compact: flags.compactionAt } : {}),
    ...(flags.compactionHard !== undefined ? { hard: flags.compactionHard } : {}),
    ...(flags.compactionModel !== undefined ? { model: flags.compactionModel } : {}),
    ...(flags.summaryMaxTokens !== undefined ? { summaryMaxTokens: flags.summaryMaxTokens } : {}),
  };
  return {
    ...(flags.model !== undefined && flags.model.length > 0 ? { models: [...flags.model] } : {}),
    ...(flags.maxTurns !== undefined ? { maxTurns: flags.maxTurns } : {}),
    ...(flags.toolResponseMaxBytes !== undefined
      ? { toolResponseMaxBytes: flags.toolResponseMaxBytes }
      : {}),
    ...(flags.toolConcurrency !== undefined ? { toolConcurrency: flags.toolConcurrency } : {}),
    ...(flags.toolTimeout !== undefined ? { toolTimeoutSecs: flags.toolTimeout } : {}),
    ...(Object.keys(toolOutput).length > 0 ? { toolOutput } : {}),
    ...(flags.contextWindow !== undefined ? { contextWindow: flags.contextWindow } : {}),
    ...(flags.maxOutputTokens !== undefined ? { maxOutputTokens: flags.maxOutputTokens } : {}),
    ...(flags.stream ? { stream: true } : {}),
    ...(flags.async !== undefined ? { async: flags.async } : {}),
    ...(flags.helperTools !== undefined ? { helperTools: flags.helperTools } : {}),
    ...(flags.textReplies !== undefined ? { textReplies: flags.textReplies } : {}),
    ...(flags.asyncTimeout !== undefined ? { asyncTimeoutSecs: flags.asyncTimeout } : {}),
    ...(flags.asyncTokenThreshold !== undefined
      ? { asyncTokenThreshold: flags.asyncTokenThreshold }
      : {}),
    ...(flags.asyncMaxRunning !== undefined ? { asyncMaxRunning: flags.asyncMaxRunning } : {}),
    ...(flags.asyncReadyMessage !== undefined
      ? { asyncReadyMessage: flags.asyncReadyMessage }
      : {}),
    ...(flags.extractionModel !== undefined && flags.extractionModel.length > 0
      ? { extraction: { models: [...flags.extractionModel] } }
      : {}),
    ...(Object.keys(compaction).length > 0 ? { compaction } : {}),
  };
}

/** What the positional arguments mean. */
export interface RunTarget {
  /** The agent file (absent when resuming). */
  readonly agent?: string;
  /** The prompt argument as given ("-" means stdin). */
  readonly prompt?: string;
}

const HOW_TO_PROMPT =
  'pass the task as the second argument (spillway run agent.md "Why did checkout fail?") ' +
  "or pipe it on stdin (echo 'Why did checkout fail?' | spillway run agent.md)";

/**
 * Sorts the positionals: `run <agent> [prompt]`, or with --resume `run --resume <id> [prompt]`
 * (an agent file may still come first when it is the session's own, `sessionAgentPath`).
 */
export function runTarget(
  first: string | undefined,
  second: string | undefined,
  flags: RunFlags,
  sessionAgentPath: string | null,
): RunTarget {
  if (flags.resume === undefined) {
    if (first === undefined) {
      throw new UsageError(
        `no agent file given: spillway run <agent.md> [prompt]; ${HOW_TO_PROMPT}`,
      );
    }
    return { agent: first, ...(second !== undefined ? { prompt: second } : {}) };
  }
  const isSessionAgent = (arg: string | undefined) =>
    arg !== undefined && sessionAgentPath !== null && resolve(arg) === sessionAgentPath;
  if (second !== undefined) {
    if (!isSessionAgent(first)) {
      throw new UsageError(
        `with --resume, give only the new prompt: spillway run --resume ${flags.resume} "<prompt>" ` +
          `(${JSON.stringify(first)} is not the session's agent file)`,
      );
    }
    return { prompt: second };
  }
  if (isSessionAgent(first)) return {};
  return first !== undefined ? { prompt: first } : {};
}

/** Reads all of a stream as UTF-8 text. */
async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) {
    chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * The prompt: the argument, else stdin read to its end when stdin is not a terminal (also
 * for the argument "-"). Trailing whitespace is dropped. Without any prompt: a usage error
 * for a new run, `undefined` when resuming (the session just continues).
 */
export async function readPrompt(
  argument: string | undefined,
  resuming: boolean,
  stdin: NodeJS.ReadStream = process.stdin,
): Promise<string | undefined> {
  let text = argument;
  if (argument === undefined || argument === "-") {
    if (stdin.isTTY) {
      if (argument === "-")
        throw new UsageError(
          `the prompt "-" means stdin, but stdin is a terminal; ${HOW_TO_PROMPT}`,
        );
      text = undefined;
    } else {
      text = await readAll(stdin);
    }
  }
  const prompt = text?.replace(/\s+$/, "");
  if (prompt !== undefined && prompt.trim() !== "") return prompt;
  if (resuming) return undefined;
  throw new UsageError(
    (argument === undefined || argument === "-") && !stdin.isTTY
      ? `no prompt: stdin was empty; ${HOW_TO_PROMPT}`
      : `no prompt given: ${HOW_TO_PROMPT}`,
  );
}
