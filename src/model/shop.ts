import { z } from 'zod';
import { address, emailAddress, orNull, timestamp, withoutNulls } from './common.js';
import { style } from './tenancy.js';

const color = z.string().regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a hexadecimal color code');
const text = (max: number) => z.string().max(max);

/** The locales production offers for shops and their return portals. */
export const shopLocales = ['de-DE', 'el-GR', 'en-GB', 'es-ES', 'fr-FR', 'it-IT', 'nl-NL', 'pl-PL', 'pt-PT'] as const;
export const DEFAULT_LOCALE = 'en-GB';

/**
 * Branding of the shop's return portal and tracking page, with production's members. Unknown
 * members are dropped rather than refused, as production's open objects accept them.
 */
const returnsBranding = z.object({
  domain: text(255).optional(),
  primary_color: color.optional(),
  accent_color: color.optional(),
  hide_product_features: z.boolean().optional(),
  hide_product_description: z.boolean().optional(),
  hide_product_price: z.boolean().optional(),
  email_content: z
    .object({
      marketing_title: text(120).optional(),
      marketing_content: text(500).optional(),
      customer_service_phone: text(20).optional(),
      customer_service_email: emailAddress().optional(),
      customer_service_text: text(100).optional(),
      footer_url: z.string().optional(),
      footer_image_url: text(255).optional(),
    })
    .optional(),
  logo_url: text(255).optional(),
  banner_url: text(255).optional(),
});

const trackingBranding = z.object({
  background_color: color.optional(),
  foreground_color: color.optional(),
  primary_color: color.optional(),
  secondary_color: color.optional(),
  accent_color: color.optional(),
  hide_customer_reference: z.boolean().optional(),
  hide_sender_address: z.boolean().optional(),
  logo_url: text(255).optional(),
});

const shopBranding = z.object({ returns: returnsBranding.optional(), tracking: trackingBranding.optional() }).meta({ id: 'ShopBranding' });
export type ShopBranding = z.output<typeof shopBranding>;

const emailContent = returnsBranding.shape.email_content.unwrap().shape;

/**
 * Branding as a request sends it: production lets the URLs, the domain and the e-mail texts be
 * `null`, which is as if they were left out (`storedBranding` drops them before a row is written).
 */
export const requestShopBranding = z
  .object({
    returns: returnsBranding
      .extend({
        domain: orNull(returnsBranding.shape.domain),
        email_content: z
          .object({
            marketing_title: orNull(emailContent.marketing_title),
            marketing_content: orNull(emailContent.marketing_content),
            customer_service_phone: orNull(emailContent.customer_service_phone),
            customer_service_email: orNull(emailContent.customer_service_email),
            customer_service_text: orNull(emailContent.customer_service_text),
            footer_url: orNull(emailContent.footer_url),
            footer_image_url: orNull(emailContent.footer_image_url),
          })
          .optional(),
        logo_url: orNull(returnsBranding.shape.logo_url),
        banner_url: orNull(returnsBranding.shape.banner_url),
      })
      .optional(),
    tracking: trackingBranding.extend({ logo_url: orNull(trackingBranding.shape.logo_url) }).optional(),
  })
  .meta({ id: 'ShopBrandingRequest' });

/** Branding as it is stored and answered: without the members sent as `null`. */
export const storedBranding = (given: z.output<typeof requestShopBranding>): ShopBranding => withoutNulls(given) as ShopBranding;

/** The attributes a client may write (production's closed set, read-only ones aside). */
export const writableShopAttributes = {
  name: z.string().min(1).max(255),
  // Any text, as in production's schema (a shop's `example.com` is fine); the sandbox only shows it.
  website: z.string().max(255).optional(),
  return_address: address,
  sender_address: address,
  reference: z.string().max(255).optional(),
  logo_url: z.url().max(255).optional().describe('Deprecated: send a logo as `meta.logo` instead.'),
  style: style.optional().describe('Deprecated: use `branding`.'),
  branding: shopBranding.optional(),
  locale: z.enum(shopLocales).optional().describe(`Defaults to ${DEFAULT_LOCALE}.`),
  return_portal_locales: z.array(z.enum(shopLocales)).max(shopLocales.length).optional(),
  return_outcomes: z.object({ exchange: z.boolean().optional() }).optional().describe('`refund` is read-only (always offered).'),
  email_subscriptions: z.strictObject({ pending_returns: emailAddress().nullable().optional() }).optional(),
};

/** Attributes as answered: production's closed set. */
export const shopAttributes = z
  .strictObject({
    ...writableShopAttributes,
    locale: z.enum(shopLocales),
    return_outcomes: z.object({ refund: z.boolean(), exchange: z.boolean().optional() }).optional(),
    return_portal_url: z.url().describe('The return portal of this shop: the sandbox serves a minimal page there naming the shop.'),
    created_at: timestamp,
  })
  .meta({ id: 'ShopAttributes' });

/**
 * A stored shop. `logo_id` names an uploaded logo (table `logos`); its URL is built per request,
 * so `logo_url` is only stored when the client set it directly. Shops of data files written
 * before `locale` existed have none and answer the default. Addresses are optional only for
 * such older rows.
 */
export type ShopRecord = Omit<z.infer<typeof shopAttributes>, 'locale' | 'return_portal_url' | 'return_address' | 'sender_address' | 'return_outcomes'> & {
  id: string;
  organization_id: string;
  logo_id?: string;
  locale?: (typeof shopLocales)[number];
  return_outcomes?: { exchange?: boolean };
  return_address?: z.infer<typeof address>;
  sender_address?: z.infer<typeof address>;
};

/** An uploaded shop logo: the bytes as base64, served as they came at `/logos/{id}`. */
export type LogoRecord = { id: string; shop_id: string; mime_type: string; data: string; size: number; created_at: number };
