import type { JobHandler } from './domain/scheduler.js';
import type { Endpoint } from './http/endpoint.js';
import type { ResourceKind } from './jsonapi/resource.js';

/** One area of the sandbox: its resource kinds, its endpoints and the jobs it schedules. */
export interface SandboxModule {
  kinds?: ResourceKind<any>[];
  endpoints: Endpoint[];
  jobs?: Record<string, JobHandler>;
}
