import { z } from 'zod';

export const serviceOptionCategories = ['delivery-window', 'handover-method', 'proof-of-delivery'] as const;

/** Production's closed attribute set; every option has a category. */
export const serviceOptionAttributes = z
  .strictObject({
    name: z.string(),
    code: z.string().regex(/^[a-z-]+:[a-z0-9-]+$/, 'must be <category>:<name>'),
    category: z.enum(serviceOptionCategories),
    values_format: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'ServiceOptionAttributes' });

export type ServiceOptionRecord = z.infer<typeof serviceOptionAttributes> & { id: string };
