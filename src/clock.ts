/**
 * A sandbox clock as the rules read it. Every "now" in the sandbox comes from one, so moving a
 * clock expires tokens, verifies contracts and registers shipments exactly as waiting would.
 * Each tenant reads its own (`store/tenant-clocks.ts`); the global clock is the `Clock` below.
 */
export interface ClockView {
  /** Current sandbox time in milliseconds since the epoch. */
  nowMs(): number;
  /** Current sandbox time in whole Unix seconds. */
  now(): number;
  /** How far the sandbox clock runs ahead of its time source, in milliseconds. */
  offsetMs(): number;
}

/** The global sandbox clock, which can be set. */
export interface Clock extends ClockView {
  /** Moves the clock so that it runs `offsetMs` ahead of its time source. */
  setOffsetMs(offsetMs: number): void;
}

/**
 * A clock that follows `source` (the wall clock by default) plus an adjustable offset.
 * Tests pass a fixed source to get a clock that only moves when told to.
 */
export function createClock(options: { source?: () => number; offsetMs?: number } = {}): Clock {
  const source = options.source ?? Date.now;
  let offset = options.offsetMs ?? 0;
  const nowMs = () => source() + offset;
  return {
    nowMs,
    now: () => Math.floor(nowMs() / 1000),
    offsetMs: () => offset,
    setOffsetMs(next) {
      offset = next;
    },
  };
}

/** A clock frozen at `startSeconds` until moved; the deterministic clock of tests. */
export function fixedClock(startSeconds: number): Clock {
  return createClock({ source: () => startSeconds * 1000 });
}
