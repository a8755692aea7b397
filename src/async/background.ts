/**
 * Background tool calls of one session: a tool still running after the time
 * trigger, or an explicitly async sub-agent, keeps running here; its result is stored when it
 * settles, whether or not the model ever asks. At most `maxRunning` run at once; explicit
 * starts beyond that wait in a queue, in order.
 */

export type JobStatus = "running" | "ready" | "failed" | "aborted";

/** One background tool call. */
export interface BackgroundJob {
  /** The output that will hold its result (its handle). */
  readonly outputId: string;
  readonly toolCallId: string;
  readonly toolName: string;
  readonly trigger: "time" | "explicit";
  /** When the tool call started (ms since the epoch). */
  readonly startedAt: number;
  status: JobStatus;
  settledAt: number | null;
  /** For ready outputs: tokens (estimate) and bytes. */
  tokens: number | null;
  bytes: number | null;
  /** Binary parts of a ready result, each stored as an output of its own. */
  attachments: readonly string[];
  /** For failed or aborted jobs: why. */
  error: string | null;
  /** Reported by wait_for_tool_output (a settled job is reported once). */
  reported: boolean;
}

/** What settling a job stored: its output's size, or why it failed. */
export type Settlement =
  | {
      readonly status: "ready";
      readonly tokens: number;
      readonly bytes: number;
      readonly attachments?: readonly string[];
    }
  | { readonly status: "failed" | "aborted"; readonly error: string };

/**
 * Stores a job's result; `abortReason` is set when the job was aborted (by abortAll or its
 * own controller) rather than ending on its own.
 */
export type Settler = (
  result: PromiseSettledResult<unknown>,
  abortReason: string | null,
) => Promise<Settlement>;

type JobInfo = Pick<BackgroundJob, "outputId" | "toolCallId" | "toolName" | "startedAt">;

interface Entry {
  readonly job: BackgroundJob;
  readonly controller: AbortController;
  done: Promise<void>;
}

/** The text of an abort reason: an Error's message, or the value. */
export function abortReasonText(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  return reason === undefined ? "the run was aborted" : String(reason);
}

/** setTimeout's largest delay; longer ones would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

export class BackgroundTools {
  private readonly entries = new Map<string, Entry>();
  private readonly queue: (() => void)[] = [];
  private listeners = new Set<() => void>();
  private settled = 0;
  /** Time-triggered hand-overs granted by reserve() and not adopted yet. */
  private reserved = 0;
  /** A graceful stop was asked: waits end at once. */
  private stopping = false;
  /** abortAll ran: anything handed over later is aborted at once. */
  private closed = false;

  constructor(
    private readonly maxRunning: number,
    private readonly clock: () => number,
  ) {}

  /** How many jobs have settled so far (the loop compares it across a turn, D3-22). */
  get settledCount(): number {
    return this.settled;
  }

  /** Jobs not settled yet (queued explicit starts included: they hold their place). */
  get runningCount(): number {
    return [...this.entries.values()].filter((e) => e.job.status === "running").length;
  }

  /**
   * Reserves a place for a time-triggered call about to be adopted; false at the cap (the call
   * then blocks as without async). Synchronous, so calls whose timers fire together cannot all
   * pass the check before one is adopted.
   */
  reserve(): boolean {
    if (this.closed || this.runningCount + this.reserved >= this.maxRunning) return false;
    this.reserved++;
    return true;
  }

  /** Gives back a reserve() that will not be adopted (storing the record failed). */
  release(): void {
    this.reserved = Math.max(0, this.reserved - 1);
  }

  jobs(): BackgroundJob[] {
    return [...this.entries.values()].map((e) => e.job);
  }

  job(outputId: string): BackgroundJob | undefined {
    return this.entries.get(outputId)?.job;
  }

  /**
   * Takes over a call that is already running (the time trigger fired, after reserve()):
   * `settle` stores its result when `work` ends.
   */
  adopt(
    job: JobInfo,
    controller: AbortController,
    work: Promise<unknown>,
    settle: Settler,
  ): BackgroundJob {
    this.reserved = Math.max(0, this.reserved - 1);
    return this.track({ ...job, trigger: "time" }, controller, work, settle);
  }

  /** Starts a call in the background from the outset (an async sub-agent), queued at the cap. */
  start(
    job: JobInfo,
    run: (signal: AbortSignal) => Promise<unknown>,
    settle: Settler,
  ): BackgroundJob {
    const controller = new AbortController();
    const slot =
      this.runningCount + this.reserved < this.maxRunning
        ? Promise.resolve()
        : new Promise<void>((resolve) => this.queue.push(resolve));
    const work = slot.then(() => {
      if (controller.signal.aborted) throw controller.signal.reason ?? new Error("aborted");
      return run(controller.signal);
    });
    return this.track({ ...job, trigger: "explicit" }, controller, work, settle);
  }

  private track(
    base: JobInfo & Pick<BackgroundJob, "trigger">,
    controller: AbortController,
    work: Promise<unknown>,
    settle: Settler,
  ): BackgroundJob {
    const job: BackgroundJob = {
      ...base,
      status: "running",
      settledAt: null,
      tokens: null,
      bytes: null,
      attachments: [],
      error: null,
      reported: false,
    };
    const entry: Entry = { job, controller, done: Promise.resolve() };
    entry.done = work
      .then(
        (value): PromiseSettledResult<unknown> => ({ status: "fulfilled", value }),
        (reason: unknown): PromiseSettledResult<unknown> => ({ status: "rejected", reason }),
      )
      .then((result) =>
        settle(
          result,
          controller.signal.aborted ? abortReasonText(controller.signal.reason) : null,
        ),
      )
      .then(
        (settlement) => this.finish(job, settlement),
        (error: unknown) =>
          this.finish(job, {
            status: "failed",
            error: `storing the result failed: ${(error as Error)?.message ?? String(error)}`,
          }),
      );
    this.entries.set(job.outputId, entry);
    // Handed over after the session's end: abort it now, so it is recorded and nothing lingers.
    if (this.closed) controller.abort(new Error("the session ended before the tool finished"));
    return job;
  }

  private finish(job: BackgroundJob, settlement: Settlement): void {
    job.status = settlement.status;
    job.settledAt = this.clock();
    if (settlement.status === "ready") {
      job.tokens = settlement.tokens;
      job.bytes = settlement.bytes;
      job.attachments = settlement.attachments ?? [];
    } else {
      job.error = settlement.error;
    }
    this.settled++;
    this.queue.shift()?.();
    this.wake();
  }

  /** Wakes every waiter (a job settled). */
  private wake(): void {
    const listeners = [...this.listeners];
    this.listeners.clear();
    for (const listener of listeners) listener();
  }

  /** A graceful stop: current and later waits end at once; running jobs go on. */
  requestStop(): void {
    this.stopping = true;
    this.wake();
  }

  /** Settled jobs not yet reported by wait_for_tool_output. */
  unreported(): BackgroundJob[] {
    return this.jobs().filter((job) => job.status !== "running" && !job.reported);
  }

  /**
   * Resolves when a job settles, the signal aborts, a stop is asked, or `timeoutMs` passes
   * (whichever first). Resolves at once when nothing runs.
   */
  async nextSettlement(signal: AbortSignal, timeoutMs: number): Promise<void> {
    if (this.runningCount === 0 || signal.aborted || this.stopping) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        this.listeners.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.min(Math.max(0, timeoutMs), MAX_TIMER_MS));
      signal.addEventListener("abort", done, { once: true });
      this.listeners.add(done);
    });
  }

  /**
   * wait_for_tool_output: the jobs settled since the last report, marked reported. When there
   * are none and some still run, waits until one settles (another waiter may take it: then
   * waits on), the signal aborts, a stop is asked, or `timeoutMs` passes.
   */
  async waitForCompleted(signal: AbortSignal, timeoutMs: number): Promise<BackgroundJob[]> {
    const deadline = performance.now() + timeoutMs;
    while (this.unreported().length === 0) {
      const left = deadline - performance.now();
      if (this.runningCount === 0 || left <= 0 || signal.aborted || this.stopping) break;
      await this.nextSettlement(signal, left);
    }
    const completed = this.unreported();
    for (const job of completed) job.reported = true;
    return completed;
  }

  /**
   * Aborts every running job (their AbortSignals fire; queued ones never start) and waits until
   * each is recorded. Jobs handed over afterwards are aborted as they arrive.
   */
  async abortAll(reason: string): Promise<void> {
    this.closed = true;
    for (const resolve of this.queue.splice(0)) resolve();
    const running = [...this.entries.values()].filter((e) => e.job.status === "running");
    for (const entry of running) entry.controller.abort(new Error(reason));
    await Promise.all(running.map((e) => e.done));
  }
}
