import { z } from 'zod';
import { address, emailAddress, taxIdentificationNumber, timestamp } from './common.js';

const colour = z.string().min(4).max(7);

const colours = { background_color: colour, foreground_color: colour, primary_color: colour, secondary_color: colour, accent_color: colour };

/**
 * Colours of an organization's or shop's branded pages (production's `Style`, deprecated there):
 * every colour is optional, as production's shape has them.
 */
export const style = z.object(colours).partial().meta({ id: 'Style' });

/** A broker's colours: production's broker requires all five. */
export const brokerStyle = z.object(colours).meta({ id: 'BrokerStyle' });
export type BrokerStyle = z.infer<typeof brokerStyle>;

/** Attributes of a broker as answered: production's closed set. */
export const brokerAttributes = z
  .strictObject({
    name: z.string(),
    domain: z.string().nullable(),
    reply_to_email: emailAddress().optional(),
    logo_url: z.string().describe('Deprecated.'),
    favicon_url: z.string(),
    support_url: z.string().optional(),
    contact_url: z.string().optional(),
    style: brokerStyle,
  })
  .meta({ id: 'BrokerAttributes' });

/**
 * A stored broker; `created_at` is kept for the sandbox's own use and not answered (production has
 * none). The seeded broker has no `logo_url`, `favicon_url` or `logo_id`: it answers the badge the
 * sandbox draws. `carrier_ids` are the carriers it offers its organizations; left out (the seeded
 * broker, older data files) it offers every carrier. `enterprise_id` is the enterprise a broker
 * created through the API named; others answer one derived from their id.
 */
export type BrokerRecord = {
  id: string;
  name: string;
  domain?: string;
  reply_to_email?: string;
  support_url?: string;
  contact_url?: string;
  style?: BrokerStyle;
  logo_url?: string;
  favicon_url?: string;
  /** An uploaded logo (table `logos`), served by the sandbox. */
  logo_id?: string;
  carrier_ids?: string[];
  enterprise_id?: string;
  created_at: number;
};

/** Attributes of an organization as answered (production's set is open; these are the ones it names). */
export const organizationAttributes = z
  .object({
    name: z.string(),
    company_registration_number: z.string().optional(),
    vat_number: z.string().optional().describe('Deprecated: use tax_identification_numbers.'),
    eori_number: z.string().optional().describe('Deprecated: use tax_identification_numbers.'),
    voec_number: z.string().optional().describe('Deprecated: use tax_identification_numbers.'),
    billing_address: address.optional(),
    logo_url: z.string().optional(),
    style: style.optional().describe('Deprecated.'),
    tax_identification_numbers: z.array(taxIdentificationNumber),
    reference: z.string().optional(),
    created_at: timestamp,
  })
  .meta({ id: 'OrganizationAttributes' });

/**
 * A stored organization; its `currency` (kept from the fixtures) is not answered: production's
 * organizations have none. `logo_id` names an uploaded logo (table `logos`), whose URL is answered
 * as `logo_url`.
 */
export type OrganizationRecord = z.infer<typeof organizationAttributes> & { id: string; broker_id: string; currency?: string; logo_id?: string };

/** A person with access to one organization's shops. Not exposed as an API resource. */
export type UserRecord = { id: string; name: string; email: string; organization_id: string };

/** The seed's three scopes: what every client held before production's finer scopes were checked. */
export const seedScopes = ['organizations.manage', 'shipments.manage', 'shops.manage'] as const;

/**
 * Every scope a client may hold: the seed's three and the scopes production checks on the
 * operations the sandbox serves (its contract's `security`). `enterprise.manage` is production's
 * own spelling on the carriers of a broker, beside `enterprises.manage` elsewhere.
 */
export const scopes = [
  ...seedScopes,
  'addresses.suggest',
  'broker.member',
  'brokers.manage',
  'collections.manage',
  'collections.view',
  'contract_templates.manage',
  'contracts.manage',
  'enterprise.manage',
  'enterprises.manage',
  'finance.manage',
  'landed_cost',
  'return_questions.manage',
  'return_reasons.manage',
  'returns.manage',
  'shipments.view',
  'system.manage',
  'zones.manage',
] as const;
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

/** The caller behind a valid access token, with the tenant it may see. */
export interface Principal {
  clientId: string;
  userId: string;
  organizationId: string;
  brokerId: string;
  scopes: readonly Scope[];
  tokenId: string;
}
