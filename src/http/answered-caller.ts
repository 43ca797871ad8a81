import type { Context } from 'hono';
import type { Principal } from '../model/tenancy.js';
import type { ReadView } from '../store/store.js';
import type { AppEnv } from './env.js';

/**
 * The caller an answered request counts for in the request log and the request record. A request
 * that removed its caller's own tenant (`DELETE /_sandbox/tenants/{itself}`, a clock move past its
 * ttl, `DELETE /organizations/{its own}`) was answered for a tenant that is gone and forgotten: it
 * counts for no tenant, else it would bring back the entries and counters the removal dropped.
 */
export function answeredCaller(c: Context<AppEnv>, store: ReadView): Principal | undefined {
  const principal = c.get('principal');
  return principal && store.get('clients', principal.clientId) ? principal : undefined;
}
