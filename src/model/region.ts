import { z } from 'zod';

/** The levels of the region tree the sandbox keeps; production answers only `country` as a category. */
export const regionCategories = ['world', 'continent', 'country', 'subdivision'] as const;

/** Attributes as answered: production's closed set, where `category` is `country` or left out. */
export const regionAttributes = z
  .strictObject({
    name: z.string(),
    country_code: z.string().optional(),
    region_code: z.string().optional().describe('Deprecated.'),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .optional(),
    category: z.enum(['country']).optional(),
  })
  .meta({ id: 'RegionAttributes' });

export type RegionRecord = {
  id: string;
  parent_id?: string;
  name: string;
  country_code?: string;
  region_code?: string;
  currency?: string;
  category: (typeof regionCategories)[number];
  /** Pattern of the postal codes in the region, for `filter[postal_code]`; never answered. */
  postal_code?: string;
};
