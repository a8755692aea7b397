/**
 * The live peers' shell limits: at most 1 MiB of a command's output kept (Codex keeps the first
 * 1 MiB; each product then applies its own limits to what it shows), a minute per command.
 */
import type { ShellLimits } from "../../shell-run.js";

export const PEER_SHELL: ShellLimits = { captureBytes: 1024 * 1024, timeoutMs: 60_000 };
