/**
 * Background tool calls of one session (seed 003): a tool still running after the time
 * trigger, or an explicitly async sub-agent, keeps running here; its result is stored when it
 * settles, whether or not the model ever asks. At most `maxRunning` run at once; explicit
 * starts beyond that wait in a queue.
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
  /** For failed or aborted jobs: why. */
  error: string | null;
  /** Reported by wait_for_tool_output (a settled job is reported once). */
  reported: boolean;
}

/** What settling a job stored: its output's size, or why it failed. */
export type Settlement =
  | { readonly status: "ready"; readonly tokens: number; readonly bytes: number }
  | { readonly status: "failed" | "aborted"; readonly error: string };

/**
 * Stores a job's result; `abortReason` is set when the job was aborted (by abortAll or its
 * own controller) rather than ending on its own.
 */
export type Settler = (
  result: PromiseSettledResult<unknown>,
  abortReason: string | null,
) => Promise<Settlement>;

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

export class BackgroundTools {
  private readonly entries = new Map<string, Entry>();
  private readonly queue: (() => void)[] = [];
  private listeners: (() => void)[] = [];
  private settled = 0;

  constructor(
    private readonly maxRunning: number,
    private readonly clock: () => number,
  ) {}

  /** How many jobs have settled so far (the loop compares it across a turn, decision 22). */
  get settledCount(): number {
    return this.settled;
  }

  get runningCount(): number {
    return [...this.entries.values()].filter((e) => e.job.status === "running").length;
  }

  /** True when a time-triggered call may move to the background now. */
  hasCapacity(): boolean {
    // Queued jobs count as running: they hold their place.
    return this.runningCount < this.maxRunning;
  }

  jobs(): BackgroundJob[] {
    return [...this.entries.values()].map((e) => e.job);
  }

  job(outputId: string): BackgroundJob | undefined {
    return this.entries.get(outputId)?.job;
  }

  /**
   * Takes over a call that is already running (the time trigger fired): `settle` stores its
   * result when `work` ends.
   */
  adopt(
    job: Pick<BackgroundJob, "outputId" | "toolCallId" | "toolName" | "startedAt">,
    controller: AbortController,
    work: Promise<unknown>,
    settle: Settler,
  ): BackgroundJob {
    return this.track({ ...job, trigger: "time" }, controller, work, settle);
  }

  /** Starts a call in the background from the outset (an async sub-agent), queued at the cap. */
  start(
    job: Pick<BackgroundJob, "outputId" | "toolCallId" | "toolName" | "startedAt">,
    run: (signal: AbortSignal) => Promise<unknown>,
    settle: Settler,
  ): BackgroundJob {
    const controller = new AbortController();
    const slot =
      this.runningCount < this.maxRunning
        ? Promise.resolve()
        : new Promise<void>((resolve) => this.queue.push(resolve));
    const work = slot.then(() => {
      if (controller.signal.aborted) throw controller.signal.reason ?? new Error("aborted");
      return run(controller.signal);
    });
    return this.track({ ...job, trigger: "explicit" }, controller, work, settle);
  }

  private track(
    base: Pick<BackgroundJob, "outputId" | "toolCallId" | "toolName" | "startedAt" | "trigger">,
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
    return job;
  }

  private finish(job: BackgroundJob, settlement: Settlement): void {
    job.status = settlement.status;
    job.settledAt = this.clock();
    if (settlement.status === "ready") {
      job.tokens = settlement.tokens;
      job.bytes = settlement.bytes;
    } else {
      job.error = settlement.error;
    }
    this.settled++;
    this.queue.shift()?.();
    this.wake();
  }

  /** Wakes every waiter (a job settled, or a graceful stop asks waits to end early). */
  wake(): void {
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
  }

  /** Settled jobs not yet reported by wait_for_tool_output. */
  unreported(): BackgroundJob[] {
    return this.jobs().filter((job) => job.status !== "running" && !job.reported);
  }

  /**
   * Resolves when a job settles, the signal aborts, or `timeoutMs` passes (whichever first).
   * Resolves at once when nothing runs.
   */
  async nextSettlement(signal: AbortSignal, timeoutMs: number): Promise<void> {
    if (this.runningCount === 0 || signal.aborted) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      signal.addEventListener("abort", done, { once: true });
      this.listeners.push(done);
    });
  }

  /**
   * wait_for_tool_output: the jobs settled since the last report (waiting for at least one
   * when none has and some still run), marked reported.
   */
  async waitForCompleted(signal: AbortSignal, timeoutMs: number): Promise<BackgroundJob[]> {
    if (this.unreported().length === 0) await this.nextSettlement(signal, timeoutMs);
    const completed = this.unreported();
    for (const job of completed) job.reported = true;
    return completed;
  }

  /** Aborts every running job (their AbortSignals fire) and waits until each is recorded. */
  async abortAll(reason: string): Promise<void> {
    for (const resolve of this.queue.splice(0)) resolve();
    const running = [...this.entries.values()].filter((e) => e.job.status === "running");
    for (const entry of running) entry.controller.abort(new Error(reason));
    await Promise.all(running.map((e) => e.done));
  }
}
