import { scopes, type Principal } from '../../model/tenancy.js';

/**
 * The caller hooks act as: a client of the organization with every scope, so a hook sees and
 * sets exactly what the organization's own clients could.
 */
export function automationFor(organizationId: string, brokerId: string): Principal {
  return { clientId: 'sandbox-automation', userId: '', organizationId, brokerId, scopes: [...scopes], tokenId: '' };
}
