import { z } from 'zod';

export const statusLevels = ['pending', 'in-progress', 'success', 'failed', 'cancelled'] as const;

export const statusAttributes = z
  .object({
    code: z.string(),
    resource_type: z.enum(['shipments', 'collections']),
    level: z.enum(statusLevels),
    name: z.string(),
    description: z.string(),
  })
  .meta({ id: 'StatusAttributes' });

export type StatusRecord = z.infer<typeof statusAttributes> & { id: string };
