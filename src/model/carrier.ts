import { z } from 'zod';

export const labelFormat = z.object({
  mime_type: z.enum(['application/pdf', 'application/zpl', 'image/png']),
  size: z.enum(['A4', 'A6']),
});
export type LabelFormat = z.infer<typeof labelFormat>;

export const carrierAttributes = z
  .object({
    name: z.string(),
    code: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be a slug'),
    credentials_format: z.record(z.string(), z.unknown()).describe('JSON Schema of contract credentials'),
    label_formats: z.array(labelFormat),
  })
  .meta({ id: 'CarrierAttributes' });

export type CarrierRecord = z.infer<typeof carrierAttributes> & { id: string };
