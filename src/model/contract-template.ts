import { z } from 'zod';
import { countryCode, timestamp } from './common.js';
import { currency } from './contract.js';

/** Attributes of a contract template as answered (production's set is open; these are the ones it names). */
export const contractTemplateAttributes = z
  .object({
    name: z.string().max(255),
    description: z.string().max(255).optional(),
    currency,
    created_at: timestamp,
    countries_from: z.array(countryCode).describe('Read-only: the countries the services of the template ship from.'),
  })
  .meta({ id: 'ContractTemplateAttributes' });

/**
 * A broker's template for contracts of one carrier: which services such a contract is for. A
 * contract made from it (`relationships.contract_template` on POST /contracts) takes rates only for
 * those services.
 */
export type ContractTemplateRecord = {
  id: string;
  name: string;
  description?: string;
  currency: z.infer<typeof currency>;
  created_at: number;
  broker_id: string;
  carrier_id: string;
  service_ids: string[];
};
