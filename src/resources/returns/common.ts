import { z } from 'zod';
import { shopLocales } from '../../model/shop.js';

/*
 * Production's scopes of the returns product: returns.manage for returns, orders, methods, shop
 * reasons, reports and analytics; the organization's catalogue of reasons and of questions is
 * read with returns.manage or its own scope and written with its own scope; creating and changing
 * tags takes returns.manage and organizations.manage together.
 */
export const returnsScope = { anyOf: ['returns.manage'] } as const;
export const reasonsRead = { anyOf: ['returns.manage', 'return_reasons.manage'] } as const;
export const reasonsWrite = { anyOf: ['return_reasons.manage'] } as const;
export const questionsRead = { anyOf: ['returns.manage', 'return_questions.manage'] } as const;
export const questionsWrite = { anyOf: ['return_questions.manage'] } as const;
export const tagWrite = { anyOf: [['returns.manage', 'organizations.manage']] } as const;

/**
 * The locale a reader asks for in `Accept-Language`, read as RFC 9110 says: ranges by weight
 * (`q`, the order given among equals; `q=0` asks for none), each matching a locale production
 * knows by RFC 4647's basic filtering, case-insensitively (`nl` and `nl-nl` are nl-NL); `*` asks
 * for every translation; `undefined` when none matches (texts as stored). Browsers send their own
 * list, so ranges the API does not know are skipped rather than refused.
 */
export function acceptLanguage(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const ranges = header
    .split(',')
    .map((part, index) => {
      const [range = '', ...parameters] = part.split(';').map((piece) => piece.trim());
      const q = parameters.find((parameter) => /^q=/i.test(parameter));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { range: range.toLowerCase(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter(({ range, weight }) => range !== '' && weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const { range } of ranges) {
    if (range === '*') return '*';
    const locale = shopLocales.find((known) => {
      const tag = known.toLowerCase();
      return tag === range || tag.startsWith(`${range}-`);
    });
    if (locale) return locale;
  }
  return undefined;
}

export const LANGUAGE_NOTE =
  'Texts follow `Accept-Language`: a locale production knows (en-GB, nl-NL, de-DE, ...; a language alone such as `nl` or any case will do, the weights `q` decide between several) answers that translation (or English, or the first there is); `*` or no header answers them as stored (a string, or every translation).';

/** The request header the texts of reasons, questions and returns follow. */
export const languageHeader = z.object({
  'Accept-Language': z.string().max(256).optional().describe('The locale to answer texts in (en-GB, nl-NL, de-DE, ...), or `*` for every translation.'),
});

// Clients send whole resources back, so read-only members are accepted and ignored.
export const readOnly = z.unknown().optional().describe('Read-only: ignored when sent.');
