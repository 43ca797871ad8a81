import type { SandboxModule } from '../../http/module.js';
import { DELIVER_WEBHOOK, deliverWebhookJob } from '../../domain/hooks/webhooks.js';
import { hookKind, hookLogKind } from './hook-kinds.js';
import { hookEndpoints } from './hooks.js';

/** Webhooks: the hooks a tenant sets and the log of each delivery. */
export const hooksModule: SandboxModule = {
  kinds: [hookKind, hookLogKind],
  endpoints: hookEndpoints,
  jobs: { [DELIVER_WEBHOOK]: deliverWebhookJob },
};
