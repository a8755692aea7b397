import type { Tool, ToolExecutionOptions } from "ai";
import type { CallInfo, SpillwaySession } from "./session.js";
import {
  handOver,
  isBackgroundOutput,
  raceDeadline,
  type SpillwayBackgroundOutput,
} from "./time-trigger.js";

type AnyTool = Tool<unknown, unknown>;
type ToolResultOutput = Awaited<ReturnType<NonNullable<AnyTool["toModelOutput"]>>>;

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Record<symbol, unknown>)[Symbol.asyncIterator] === "function"
  );
}

/** The AI SDK's own default model output (used when the tool has no toModelOutput). */
function defaultModelOutput(output: unknown): ToolResultOutput {
  return typeof output === "string"
    ? { type: "text", value: output }
    : { type: "json", value: (output ?? null) as never };
}

/** One call of a wrapped tool. */
interface Run {
  readonly session: SpillwaySession;
  readonly call: CallInfo;
  /** The time trigger, when async tools are on. */
  readonly timeoutMs: number | undefined;
  /** Stops the call once it is in the background. */
  readonly controller: AbortController;
  readonly startedAt: number;
  /** The loop's own abort signal. */
  readonly loopSignal: AbortSignal | undefined;
}

function toBackground(run: Run, work: Promise<unknown>) {
  return handOver(run.session, run.call, run.controller, work, run.startedAt, run.loopSignal);
}

/**
 * A promise-returning execute: without async, stores the value and returns it; with the time
 * trigger, a tool still running at the deadline goes on in the background and the call
 * answers with its handle at once.
 */
async function settleValue(run: Run, result: unknown): Promise<unknown> {
  const work = Promise.resolve(result);
  if (run.timeoutMs !== undefined) {
    const race = await raceDeadline(
      work.then(
        (value) => ({ ok: true as const, value }),
        (reason: unknown) => ({ ok: false as const, reason }),
      ),
      performance.now() + run.timeoutMs,
    );
    if (race.won === "timer") {
      const marker = await toBackground(run, work);
      if (marker) return marker;
    } else if (!race.value.ok) throw race.value.reason;
  }
  const value = await work;
  await run.session.capture(run.call, value);
  return value;
}

/**
 * A generator execute (preliminary results): every value passes through to the loop as it
 * comes; the last one, the result, is stored whole before the loop sees the end. With the time
 * trigger, a generator still running at the deadline goes on in the background: its handle is
 * the call's last value, and its own last value is stored when it ends.
 */
async function* settleIterable(
  run: Run,
  iterable: AsyncIterable<unknown>,
): AsyncGenerator<unknown> {
  const iterator = iterable[Symbol.asyncIterator]();
  const deadline = performance.now() + (run.timeoutMs ?? 0);
  let last: unknown;
  for (;;) {
    const next = iterator.next();
    if (run.timeoutMs !== undefined) {
      const race = await raceDeadline(
        next.then(
          (r) => ({ ok: true as const, r }),
          (reason: unknown) => ({ ok: false as const, reason }),
        ),
        deadline,
      );
      if (race.won === "timer") {
        const rest = (async () => {
          let step = await next;
          while (!step.done) {
            last = step.value;
            step = await iterator.next();
          }
          return last;
        })();
        const marker: SpillwayBackgroundOutput | undefined = await toBackground(run, rest);
        if (marker) {
          yield marker;
          return;
        }
        // The background is full: wait for the end like without async, then show the result.
        last = await rest;
        await run.session.capture(run.call, last);
        yield last;
        return;
      }
      if (!race.value.ok) throw race.value.reason;
      if (race.value.r.done) break;
      last = race.value.r.value;
    } else {
      const step = await next;
      if (step.done) break;
      last = step.value;
    }
    yield last;
  }
  // The loop takes the last value yielded as the result; it is stored before the loop sees the end.
  await run.session.capture(run.call, last);
}

/**
 * Wraps one AI SDK tool: its `execute` result is stored whole first (strings, JSON, bytes, MCP
 * content), then `toModelOutput` shows the result itself when it fits, else the handle
 * message. Everything else about the tool (schemas, approval, callbacks) is kept. Tools that
 * the loop does not execute (no `execute`, provider tools) are returned unchanged.
 */
export function wrapTool<T extends AnyTool>(
  session: SpillwaySession,
  name: string,
  original: T,
): T {
  const execute = original.execute;
  if (typeof execute !== "function" || original.type === "provider") return original;
  const ownModelOutput = original.toModelOutput;
  const timeoutMs = session.options.async ? session.options.async.timeoutSecs * 1000 : undefined;
  const wrapped = {
    ...original,
    execute: (input: unknown, options: ToolExecutionOptions) => {
      // With the time trigger, a call handed to the background can be stopped on its own too.
      const controller = new AbortController();
      const run: Run = {
        session,
        call: { toolName: name, toolCallId: options.toolCallId, input, messages: options.messages },
        timeoutMs,
        controller,
        startedAt: session.clock(),
        loopSignal: options.abortSignal,
      };
      const signal =
        timeoutMs === undefined
          ? options.abortSignal
          : options.abortSignal
            ? AbortSignal.any([options.abortSignal, controller.signal])
            : controller.signal;
      const result = execute(input, { ...options, ...(signal ? { abortSignal: signal } : {}) });
      return isAsyncIterable(result) ? settleIterable(run, result) : settleValue(run, result);
    },
    toModelOutput: async (options: { toolCallId: string; input: unknown; output: unknown }) => {
      const { toolCallId, input, output } = options;
      if (isBackgroundOutput(output)) return { type: "text", value: output.message };
      const view = await session.viewOf({ toolName: name, toolCallId, input }, output);
      if (view.kind === "text") return { type: "text", value: view.text };
      return ownModelOutput ? ownModelOutput(options as never) : defaultModelOutput(output);
    },
  };
  return wrapped as unknown as T;
}
