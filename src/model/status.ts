import { z } from 'zod';

export const statusLevels = ['pending', 'in-progress', 'success', 'failed', 'cancelled'] as const;

/** What the sandbox stores a status for; production's answers know no `collections` (see statusKind). */
type StatusResourceType = 'shipments' | 'collections' | 'returns' | 'reports';

/** Attributes as answered: production's closed set and its `resource_type` enum. */
export const statusAttributes = z
  .strictObject({
    code: z.string(),
    resource_type: z.enum(['invoices', 'reports', 'returns', 'shipments']),
    level: z.enum(statusLevels),
    name: z.string(),
    description: z.string(),
  })
  .meta({ id: 'StatusAttributes' });

export type StatusRecord = Omit<z.infer<typeof statusAttributes>, 'resource_type'> & { id: string; resource_type: StatusResourceType };
