import { z } from 'zod';
import { address, timestamp } from './common.js';

const color = z.string().regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a hexadecimal color code');

export const brandingStyle = z
  .object({
    logo_url: z.url().optional(),
    primary_color: color.optional(),
    secondary_color: color.optional(),
    background_color: color.optional(),
    foreground_color: color.optional(),
    accent_color: color.optional(),
  })
  .meta({ id: 'BrandingStyle' });

export const shopAttributes = z
  .object({
    name: z.string().min(1).max(255),
    website: z.url().optional(),
    return_address: address.optional(),
    sender_address: address.optional(),
    reference: z.string().max(255).optional(),
    logo_url: z.url().optional(),
    branding: z.object({ returns: brandingStyle.optional(), tracking: brandingStyle.optional() }).optional(),
    created_at: timestamp,
  })
  .meta({ id: 'ShopAttributes' });

/**
 * A stored shop. `logo_id` names an uploaded logo (table `logos`); its URL is built per request,
 * so `logo_url` is only stored when the client set it directly.
 */
export type ShopRecord = z.infer<typeof shopAttributes> & { id: string; organization_id: string; logo_id?: string };

/** An uploaded shop logo: the bytes as base64, served as they came at `/logos/{id}`. */
export type LogoRecord = { id: string; shop_id: string; mime_type: string; data: string; size: number; created_at: number };
