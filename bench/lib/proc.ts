// CPU time per thread and memory of a process, from /proc: steadier than req/s, and it sees the thread pool a CPU profile misses.
import { execFileSync } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';

const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

export type ThreadCpu = Map<number, { name: string; ms: number }>;

/** CPU time (user + system) of every thread of `pid`, from /proc. */
export async function threadCpu(pid: number): Promise<ThreadCpu> {
  const threads: ThreadCpu = new Map();
  let tids: string[] = [];
  try {
    tids = await readdir(`/proc/${pid}/task`);
  } catch {
    return threads;
  }
  for (const tid of tids) {
    try {
      const text = await readFile(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      // After "pid (comm) ", field 3 (state) is index 0: utime is field 14, stime field 15.
      const ticks = Number(fields[11]) + Number(fields[12]);
      threads.set(Number(tid), { name, ms: (ticks * 1000) / CLK_TCK });
    } catch {
      // the thread ended between readdir and read
    }
  }
  return threads;
}

/**
 * CPU per request, split into the main JavaScript thread and every other thread of the process
 * (Node 20 names them all "node": V8's GC and compiler helpers and the libuv thread pool, which
 * runs WebCrypto signatures and file system calls).
 */
export interface CpuPerRequest {
  main_us: number;
  other_threads_us: number;
  total_us: number;
}

export function cpuPerRequest(pid: number, before: ThreadCpu, after: ThreadCpu, requests: number): CpuPerRequest {
  let main = 0;
  let other = 0;
  for (const [tid, { ms }] of after) {
    const used = ms - (before.get(tid)?.ms ?? 0);
    if (tid === pid) main += used;
    else other += used;
  }
  const us = (ms: number) => (requests > 0 ? Math.round((ms * 1000) / requests) : 0);
  return { main_us: us(main), other_threads_us: us(other), total_us: us(main + other) };
}

export async function memory(pid: number): Promise<{ rss_mb: number; hwm_mb: number }> {
  const text = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
  return { rss_mb: Math.round((kb('VmRSS') / 1024) * 10) / 10, hwm_mb: Math.round((kb('VmHWM') / 1024) * 10) / 10 };
}

/**
 * Under load V8 lets the old generation grow to up to four times the live heap before a full
 * collection, and keeps those pages; once the process is idle, V8's memory reducer collects with
 * memory in mind and returns them. It runs about 8 s after the last full collection, or 8 s later
 * when the allocation rate was still high then, so 30 s covers it with room (measured here: it ran
 * 10-20 s after the load stopped).
 */
export const SETTLE_S = 30;
const SAMPLE_S = 5;

/** RSS every SAMPLE_S seconds while `pid` is left idle for SETTLE_S seconds: the last is the settled RSS. */
export async function settledRss(pid: number): Promise<number[]> {
  const samples: number[] = [];
  for (let waited = 0; waited < SETTLE_S; waited += SAMPLE_S) {
    await new Promise((done) => setTimeout(done, SAMPLE_S * 1000));
    samples.push((await memory(pid)).rss_mb);
  }
  return samples;
}
