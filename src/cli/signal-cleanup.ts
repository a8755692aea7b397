/**
 * Ctrl-C and SIGTERM during a command that writes to the store: remove this process's
 * temp files before exiting (130 or 143), so an interrupted put leaves nothing behind.
 */
import { removeLiveTempsSync } from "../store/temp-files.js";

/** Installs the handlers; returns the function that removes them. */
export function cleanTempsOnSignals(): () => void {
  const onSignal = (signal: NodeJS.Signals) => {
    removeLiveTempsSync();
    process.exit(signal === "SIGINT" ? 130 : 143);
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  return () => {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  };
}
