import { z } from 'zod';
import { shopLocales } from '../../model/shop.js';

/*
 * Scopes. The seed has organizations.manage, shipments.manage and shops.manage; production's
 * returns scopes map onto them: returns.manage (which production also accepts for shipment reads)
 * -> shipments.manage; return_reasons.manage and return_questions.manage (the catalogue) ->
 * shops.manage; creating and changing tags (returns.manage and organizations.manage) ->
 * organizations.manage.
 */
export const returnsScope = { anyOf: ['shipments.manage'] } as const;
export const catalogueRead = { anyOf: ['shipments.manage', 'shops.manage'] } as const;
export const catalogueWrite = { anyOf: ['shops.manage'] } as const;
export const tagWrite = { anyOf: ['organizations.manage'] } as const;

/**
 * The locale a reader asks for in `Accept-Language`: the first listed locale production knows,
 * `*` for every translation, or `undefined` (texts as stored). Browsers send their own list, so
 * entries the API does not know are skipped rather than refused.
 */
export function acceptLanguage(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(',')) {
    const tag = part.split(';')[0]!.trim();
    if (tag === '*') return '*';
    if ((shopLocales as readonly string[]).includes(tag)) return tag;
  }
  return undefined;
}

export const LANGUAGE_NOTE =
  'Texts follow `Accept-Language`: a locale production knows (en-GB, nl-NL, de-DE, ...) answers that translation (or English, or the first there is); `*` or no header answers them as stored (a string, or every translation).';

/** The request header the texts of reasons, questions and returns follow. */
export const languageHeader = z.object({
  'Accept-Language': z.string().max(256).optional().describe('The locale to answer texts in (en-GB, nl-NL, de-DE, ...), or `*` for every translation.'),
});

// Clients send whole resources back, so read-only members are accepted and ignored.
export const readOnly = z.unknown().optional().describe('Read-only: ignored when sent.');
