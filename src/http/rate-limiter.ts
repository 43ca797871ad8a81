/*
 * The requests-per-minute limit of each tenant. A fixed window of one minute per key: the
 * organization of the access token, or the address of a caller without one. It runs on real
 * time, not on the sandbox clock: it protects the server, and moving the clock must neither
 * refill nor drain it. Every request pays one Map lookup, a few integer operations and the three
 * header strings (GET /shipments/{id} answers ~20k/s, see bench/); a key's window object is
 * reused from minute to minute, and windows idle for a minute are swept once a minute.
 */

const WINDOW_MS = 60_000;

interface Window {
  start: number;
  count: number;
}

/** Counts requests per key in fixed windows of a minute of real time. */
export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private sweepAt = 0;

  /** `now` is real time in milliseconds (read on each call, so tests may fake `Date`). */
  constructor(private readonly now: () => number = () => Date.now()) {}

  /**
   * Counts one request of `key` against `limit` and says where the key stands: the requests
   * counted in its window (this one included) and the milliseconds until the window ends.
   * Refused requests count too: hammering does not pay.
   */
  take(key: string, limit: number): { count: number; limit: number; resetMs: number } {
    const now = this.now();
    if (now >= this.sweepAt) this.sweep(now);
    let window = this.windows.get(key);
    if (window === undefined) {
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    } else if (now - window.start >= WINDOW_MS) {
      window.start = now;
      window.count = 0;
    }
    window.count += 1;
    return { count: window.count, limit, resetMs: window.start + WINDOW_MS - now };
  }

  /** The requests counted for `key` in its current window, without counting one. */
  peek(key: string): number {
    const window = this.windows.get(key);
    return window === undefined || this.now() - window.start >= WINDOW_MS ? 0 : window.count;
  }

  private sweep(now: number): void {
    for (const [key, window] of this.windows) if (now - window.start >= WINDOW_MS) this.windows.delete(key);
    this.sweepAt = now + WINDOW_MS;
  }
}
