import type { Scope } from '../model/tenancy.js';

/** The caller behind a valid access token, with the tenant it may see. */
export interface Principal {
  clientId: string;
  userId: string;
  organizationId: string;
  brokerId: string;
  scopes: readonly Scope[];
  tokenId: string;
}
