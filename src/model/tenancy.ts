import { z } from 'zod';
import { address, taxIdentificationNumber, timestamp } from './common.js';

export const brokerAttributes = z
  .object({ name: z.string(), domain: z.string().optional(), created_at: timestamp })
  .meta({ id: 'BrokerAttributes' });
export type BrokerRecord = z.infer<typeof brokerAttributes> & { id: string };

export const organizationAttributes = z
  .object({
    name: z.string(),
    company_registration_number: z.string().optional(),
    billing_address: address.optional(),
    tax_identification_numbers: z.array(taxIdentificationNumber),
    currency: z.string().optional(),
    created_at: timestamp,
  })
  .meta({ id: 'OrganizationAttributes' });
export type OrganizationRecord = z.infer<typeof organizationAttributes> & { id: string; broker_id: string };

/** A person with access to one organization's shops. Not exposed as an API resource. */
export type UserRecord = { id: string; name: string; email: string; organization_id: string };

export const scopes = ['organizations.manage', 'shipments.manage', 'shops.manage'] as const;
export type Scope = (typeof scopes)[number];

/** OAuth client; `id` is the client_id. The secret is kept only as a SHA-256 hex digest. */
export type ClientRecord = {
  id: string;
  name: string;
  secret_sha256: string;
  user_id: string;
  scopes: Scope[];
  /** Bumped to revoke every token issued to the client so far. */
  token_generation: number;
};
