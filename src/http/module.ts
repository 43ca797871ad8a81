import type { Kind } from './context.js';
import type { JobHandler } from '../domain/scheduler.js';
import type { Endpoint } from './endpoint.js';

/** One area of the sandbox: its resource kinds, its endpoints and the jobs it schedules. */
export interface SandboxModule {
  kinds?: Kind<any>[];
  endpoints: Endpoint[];
  jobs?: Record<string, JobHandler>;
}
