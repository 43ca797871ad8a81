import { z } from 'zod';

export const regionAttributes = z
  .object({
    name: z.string(),
    country_code: z.string().optional(),
    region_code: z.string().optional(),
    currency: z.string().optional(),
    category: z.enum(['world', 'continent', 'country', 'subdivision']),
  })
  .meta({ id: 'RegionAttributes' });

export type RegionRecord = z.infer<typeof regionAttributes> & { id: string; parent_id?: string };
