/**
 * spillway/server: `spillway serve` as a library, for applications that embed it or run it
 * on several workers (replace the session runner, the event feed or the ownership registry).
 *
 * @example
 * import { startServer } from "spillway/server";
 * const server = await startServer({ port: 0, home: "/var/lib/spillway", token: process.env.TOKEN });
 * console.log(server.url);
 */
export type { Tenant } from "./auth.js";
export {
  type ContextLevel,
  type ContextStatus,
  type ContextThresholds,
  DEFAULT_THRESHOLDS,
  thresholdLabel,
} from "./context-status.js";
export {
  EventHub,
  type EventHubOptions,
  type HubEvent,
  type ReadResult,
  type SessionEventFeed,
  type WireEvent,
} from "./event-hub.js";
export type { ErrorBody, HttpErrorCode } from "./problem.js";
export {
  DEFAULT_HOST,
  DEFAULT_PORT,
  type RunningServer,
  type ServeOptions,
  startServer,
} from "./serve.js";
export {
  type LocalRunnerOptions,
  localSessionRunner,
  type SessionRun,
  type SessionRunner,
  type SessionRunRequest,
} from "./session-runner.js";
export { FileSessionOwners, type SessionOwners } from "./tenancy.js";
