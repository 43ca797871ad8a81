/*
 * SIGTERM and SIGINT stop the sandbox gracefully (run-server.ts). They are caught from the first
 * thing the process does, not once the server's modules have loaded, which is most of a start:
 * a signal nobody catches is ignored by a process that is PID 1 of a container, so a `docker
 * stop` soon after `docker run` waited out its 10 s and then killed the container (exit 137);
 * outside a container the same signal ended the process without a word.
 */

export interface StopSignals {
  /** The signal that asked the sandbox to stop, once one came. */
  readonly received: NodeJS.Signals | undefined;
  /** Runs `stop` when a signal comes, or at once when one came already. */
  onStop(stop: () => void): void;
}

/** Catches SIGTERM and SIGINT from now on: the first asks for a graceful stop, a second exits at once. */
export function catchStopSignals(): StopSignals {
  let received: NodeJS.Signals | undefined;
  let stop: (() => void) | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (received) {
      process.stderr.write(`parcel-sandbox: ${signal} again; exiting without waiting\n`);
      process.exit(1);
    }
    received = signal;
    stop?.();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    get received() {
      return received;
    },
    onStop(callback) {
      stop = callback;
      if (received) callback();
    },
  };
}
