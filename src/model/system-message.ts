import { z } from 'zod';

/**
 * A broker's message to the users of all its organizations (a notice in the dashboard):
 * production's closed set of attributes.
 */
export const systemMessageAttributes = z
  .strictObject({
    content: z.string().max(255),
    level: z.enum(['info', 'success', 'warning', 'error']),
  })
  .meta({ id: 'SystemMessageAttributes' });

/** A stored system message: its broker's, made and changed by the broker (the admin token). */
export type SystemMessageRecord = z.infer<typeof systemMessageAttributes> & { id: string; broker_id: string };
