import { type ErrorCode, SpillwayError } from "../core/errors.js";

/**
 * The largest config file, or agent frontmatter, spillway reads: settings fit in far less,
 * and parsing (and locating keys in) a YAML document of tens of MB takes tens of seconds.
 */
export const MAX_SETTINGS_SOURCE_BYTES = 1024 * 1024;

/**
 * Refuses settings text over {@link MAX_SETTINGS_SOURCE_BYTES} before parsing it.
 *
 * @example
 * checkSourceSize(text, { file, code: "CONFIG_INVALID", subject: "config file" });
 */
export function checkSourceSize(
  text: string,
  options: { file: string; code: ErrorCode; subject: string; part?: string },
): void {
  // UTF-16 length bounds the UTF-8 size from below to a third: check cheaply first.
  if (text.length <= MAX_SETTINGS_SOURCE_BYTES / 3) return;
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes <= MAX_SETTINGS_SOURCE_BYTES) return;
  const what = options.part ? `its ${options.part}` : "it";
  throw new SpillwayError(
    options.code,
    `Invalid ${options.subject} ${options.file}: ${what} is ${bytes} bytes, over the limit of ` +
      `${MAX_SETTINGS_SOURCE_BYTES} bytes for settings. Keep large content out of it (a system ` +
      "prompt goes after the frontmatter; data goes in files the agent reads).",
    { file: options.file, bytes, limit: MAX_SETTINGS_SOURCE_BYTES, line: 1 },
  );
}
