import type { RunAgentOptions } from "./run-types.js";

/** Options a linked session (sub-agent, read-grep agent) inherits from its parent's run. */
export function inheritedOptions(options: RunAgentOptions): Partial<RunAgentOptions> {
  return {
    ...(options.env ? { env: options.env } : {}),
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    ...(options.callModel ? { callModel: options.callModel } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  };
}
