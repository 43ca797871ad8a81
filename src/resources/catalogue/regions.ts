import type { Kind } from '../../http/context.js';
import { z } from 'zod';
import { csvCountryCodes, csvIds, csvOf, csvStrings, listHas } from '../../http/params.js';
import { linkTo } from '../../jsonapi/resource.js';
import { resourceSchemas } from '../../jsonapi/schemas.js';
import { regionAttributes, regionCategories, type RegionRecord } from '../../model/region.js';
import { readEndpoints } from '../read-endpoints.js';

export const regionKind: Kind<RegionRecord> = {
  type: 'regions',
  attributesSchema: regionAttributes,
  // Production's only category is `country`; the world, continents and subdivisions answer none.
  attributes: ({ name, country_code, region_code, currency, category }) => ({
    name,
    country_code,
    region_code,
    currency,
    category: category === 'country' ? category : undefined,
  }),
  relationships: {
    parent: { targets: ['regions'], optional: true, data: (row) => linkTo('regions', row.parent_id) },
  },
  self: (row) => `/regions/${row.id}`,
  load: (ctx, id) => ctx.store.get('regions', id),
};

const query = z.object({
  'filter[parent]': csvIds.optional(),
  'filter[country_code]': csvCountryCodes.optional(),
  'filter[region_code]': csvStrings.optional(),
  'filter[name]': z.string().optional(),
  // Checked against the levels there are: a misspelt one would match nothing and say nothing.
  'filter[category]': csvOf(regionCategories)
    .optional()
    .describe("Comma separated: country (production), or world, continent, subdivision (the sandbox's other tree levels)."),
  'filter[postal_code]': z.string().min(1).max(20).optional().describe('Regions whose postal codes look like this one (a code may fit several countries).'),
});

const fitsPostalCode = (row: RegionRecord, code: string): boolean =>
  row.postal_code !== undefined && new RegExp(row.postal_code).test(code.trim().toUpperCase());

export const regionEndpoints = readEndpoints({
  kind: regionKind,
  table: 'regions',
  tag: 'Regions',
  noun: 'region',
  plural: 'regions',
  auth: 'token',
  schemas: resourceSchemas(regionKind),
  query,
  description: 'Regions form a tree: the world, a continent, countries and their subdivisions.',
  filter: (_ctx, rows, q) =>
    rows.filter(
      (row) =>
        (!q['filter[parent]'] || (row.parent_id !== undefined && listHas(q['filter[parent]'], row.parent_id))) &&
        (!q['filter[country_code]'] || (row.country_code !== undefined && listHas(q['filter[country_code]'], row.country_code))) &&
        (!q['filter[region_code]'] || (row.region_code !== undefined && listHas(q['filter[region_code]'], row.region_code))) &&
        (!q['filter[name]'] || row.name.toLowerCase() === q['filter[name]'].toLowerCase()) &&
        (!q['filter[category]'] || listHas(q['filter[category]'], row.category)) &&
        (!q['filter[postal_code]'] || fitsPostalCode(row, q['filter[postal_code]'])),
    ),
});
