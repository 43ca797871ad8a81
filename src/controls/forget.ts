import type { OrganizationRemoval, RemovalCause } from '../domain/removals.js';
import type { Services } from '../http/services.js';

/**
 * Drops what the app keeps in memory about a removed tenant, so nothing keyed by it lingers:
 * its clients' verified tokens (they would be refused anyway, the client is gone), their entries
 * in the request log and the counters in the request record of each organization it had (a pack
 * may have made several), rendered documents, and its clock and rules objects.
 */
export function forgetRemoved(services: Services, removal: OrganizationRemoval): void {
  const clientIds = new Set(removal.clientIds);
  services.tokens.forget(clientIds);
  services.requestLog.forget(clientIds);
  services.renderCache.clear();
  for (const organizationId of removal.organizationIds ?? [removal.organizationId]) {
    services.usage.forget(organizationId);
    services.rules.forgetTenant(organizationId);
  }
}

/** Forgets a removed tenant (`forgetRemoved`) and logs the removal with why it happened. */
export function forgetTenant(services: Services, removal: OrganizationRemoval, why: RemovalCause): void {
  forgetRemoved(services, removal);
  services.logger?.info({ organization_id: removal.organizationId, client_ids: removal.clientIds, removed: removal.removed, why }, `tenant ${why} and removed`);
}
