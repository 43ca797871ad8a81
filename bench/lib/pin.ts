// Pins the server to CPU 0 and the load to CPU 1: unpinned, runs on this 2-CPU VM varied by up to 2x as the scheduler put both on one CPU.
import { execFileSync } from 'node:child_process';
import { args } from './options.js';

export const CPUS = (() => {
  try {
    return Number(execFileSync('nproc').toString().trim());
  } catch {
    return 1;
  }
})();

export const PIN =
  !args['no-pin'] &&
  CPUS >= 2 &&
  (() => {
    try {
      execFileSync('taskset', ['-c', '0', 'true']);
      return true;
    } catch {
      return false;
    }
  })();

/** The command and arguments that run `argv` with node, on `cpu` when pinning. */
export function onCpu(cpu: number, argv: string[]): [string, string[]] {
  return PIN ? ['taskset', ['-c', String(cpu), process.execPath, ...argv]] : [process.execPath, argv];
}
