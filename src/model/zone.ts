import { z } from 'zod';
import { countryCode, timestamp } from './common.js';

/** A subdivision code, as production's zones and addresses write it. */
export const stateCode = z.string().regex(/^[A-Z\d]{1,3}$/, 'must be a 1 to 3 character ISO 3166-2 subdivision code');

/**
 * A zone: a group of countries, optionally narrowed to subdivisions and to postal codes matching a
 * pattern (a regular expression, as in a service's address rules). Production's closed set.
 */
export const zoneAttributes = z
  .strictObject({
    name: z.string().max(255),
    code: z.string().max(255),
    description: z.string().optional(),
    postal_code: z.string().optional().describe('Regular expression the postal codes of the zone match.'),
    state_codes: z.array(stateCode).optional(),
    country_codes: z.array(countryCode),
    created_at: timestamp,
  })
  .meta({ id: 'ZoneAttributes' });

/**
 * A stored zone. Seeded zones (the routes of the catalogue's services) have no `organization_id`:
 * every tenant sees them and none may change them. Zones made through the API belong to the
 * organization that made them.
 */
export type ZoneRecord = z.infer<typeof zoneAttributes> & { id: string; organization_id?: string };
