/**
 * Concurrent uploads per tenant. Each upload being stored holds buffers, a temp file (or, on
 * PostgreSQL, a connection in a transaction) until its body ends, so a tenant gets a bounded
 * number at once; further uploads wait their turn (their bodies unread, so TCP holds the
 * bytes back), and past a bounded queue, or after waiting too long, they are refused with 429.
 * One tenant's uploads never take another tenant's slots.
 */
import { HttpProblem } from "./problem.js";

/** Default concurrent uploads per tenant (`--max-uploads`). */
export const DEFAULT_MAX_UPLOADS = 8;

export interface UploadSlotsOptions {
  /** Uploads a tenant may have in progress at once. */
  readonly perTenant: number;
  /** Uploads a tenant may have waiting for a slot (default 32 × perTenant). */
  readonly maxWaiting?: number;
  /** How long an upload waits for a slot before 429, ms (default 30000). */
  readonly maxWaitMs?: number;
}

interface Waiter {
  readonly grant: () => void;
}

interface TenantSlots {
  active: number;
  readonly waiting: Waiter[];
}

function busy(tenant: string, options: UploadSlotsOptions, why: string): HttpProblem {
  return new HttpProblem(
    429,
    "TOO_MANY_UPLOADS",
    `Too many uploads in progress for this tenant (${options.perTenant} at once, set by --max-uploads); ${why}. Retry when one has finished.`,
    { tenant, maxUploads: options.perTenant, retryAfterSeconds: 1 },
    { "retry-after": "1" },
  );
}

/**
 * Per-tenant upload slots.
 *
 * @example
 * const slots = new UploadSlots({ perTenant: 8 });
 * const release = await slots.acquire("alice", request.signal);
 * try { await store.put(…); } finally { release(); }
 */
export class UploadSlots {
  private readonly tenants = new Map<string, TenantSlots>();

  constructor(private readonly options: UploadSlotsOptions) {}

  /** Uploads in progress for a tenant. */
  active(tenant: string): number {
    return this.tenants.get(tenant)?.active ?? 0;
  }

  /**
   * Waits for a slot; resolves with the function that gives it back (call it exactly once).
   * Rejects with 429 when the queue is full or the wait is over, and stops waiting when
   * `signal` aborts (the client went away).
   */
  acquire(tenant: string, signal?: AbortSignal): Promise<() => void> {
    const slots = this.tenants.get(tenant) ?? { active: 0, waiting: [] };
    this.tenants.set(tenant, slots);
    const release = this.releaser(tenant, slots);
    if (slots.active < this.options.perTenant) {
      slots.active++;
      return Promise.resolve(release);
    }
    const maxWaiting = this.options.maxWaiting ?? 32 * this.options.perTenant;
    if (slots.waiting.length >= maxWaiting)
      return Promise.reject(busy(tenant, this.options, `${maxWaiting} more are already waiting`));
    return new Promise((resolve, reject) => {
      const leave = () => {
        const at = slots.waiting.indexOf(waiter);
        if (at >= 0) slots.waiting.splice(at, 1);
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      };
      const waiter: Waiter = {
        grant: () => {
          leave();
          slots.active++;
          resolve(release);
        },
      };
      const waitMs = this.options.maxWaitMs ?? 30_000;
      const timer = setTimeout(() => {
        leave();
        this.forget(tenant, slots);
        reject(busy(tenant, this.options, `this one waited ${waitMs} ms for a slot`));
      }, waitMs);
      timer.unref?.();
      const onAbort = () => {
        leave();
        this.forget(tenant, slots);
        reject(signal?.reason ?? new Error("aborted"));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      slots.waiting.push(waiter);
    });
  }

  private releaser(tenant: string, slots: TenantSlots): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      slots.active--;
      const next = slots.waiting[0];
      if (next) next.grant();
      else this.forget(tenant, slots);
    };
  }

  private forget(tenant: string, slots: TenantSlots): void {
    if (slots.active === 0 && slots.waiting.length === 0) this.tenants.delete(tenant);
  }
}
