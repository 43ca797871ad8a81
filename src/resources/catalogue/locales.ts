import { z } from 'zod';
import type { Kind } from '../../http/context.js';
import { endpoint } from '../../http/endpoint.js';
import { booleanParam } from '../../http/params.js';
import { jsonApi } from '../../http/respond.js';
import { collectionDocument } from '../../jsonapi/document.js';
import { resourceSchemas } from '../../jsonapi/schemas.js';
import { deterministicUuid } from '../../ids.js';
import { shopLocales } from '../../model/shop.js';
import { locales, type LocaleEntry } from '../../fixtures/reference/locales.js';

type LocaleRow = LocaleEntry & { id: string };

/** Locales are fixed: their ids follow from their place in the list, the same in every sandbox. */
const rows: readonly LocaleRow[] = locales.map((entry, index) => ({ ...entry, id: deterministicUuid('locale', index + 1) }));

const LIST_PATH = '/locales/v1/locales';

export const localeKind: Kind<LocaleRow> = {
  type: 'locales',
  attributesSchema: z.object({ code: z.enum(shopLocales), name: z.string() }).meta({ id: 'LocaleAttributes' }),
  attributes: (row) => ({ code: row.code, name: row.name }),
  relationships: {},
  // Production serves no locale on its own: the list is where a locale lives, and a locale has no links.
  self: () => LIST_PATH,
  unlinked: true,
  load: (_ctx, id) => rows.find((row) => row.id === id),
};

const query = z.object({
  'filter[available_in_back_office]': booleanParam.optional().describe('Only locales the back office is (true) or is not (false) offered in.'),
  'filter[available_in_return_portal]': booleanParam.optional().describe("Only locales shops' return portals are (true) or are not (false) offered in."),
});

export const localeEndpoint = endpoint({
  method: 'get',
  path: LIST_PATH,
  operationId: 'listLocales',
  summary: 'List locales',
  description: ' The locales shops and their return portals can be set to (`locale`, `return_portal_locales`).',
  tag: 'Shops',
  auth: { anyOf: ['organizations.manage'] },
  query,
  paginated: true,
  responses: { 200: { description: 'The locales.', schema: resourceSchemas(localeKind).list } },
  handler: (ctx, { query: q, page }) => {
    const back = q['filter[available_in_back_office]'];
    const portal = q['filter[available_in_return_portal]'];
    const listed = rows.filter(
      (row) => (back === undefined || row.available_in_back_office === back) && (portal === undefined || row.available_in_return_portal === portal),
    );
    return jsonApi(collectionDocument(ctx, localeKind, listed, page));
  },
});
