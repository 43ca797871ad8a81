import type { ResourceKind } from '../jsonapi/resource.js';
import { resourceSchemas } from '../jsonapi/schemas.js';
import { carrierAttributes, type CarrierRecord } from '../model/carrier.js';
import { readEndpoints } from './read-endpoints.js';

export const carrierKind: ResourceKind<CarrierRecord> = {
  type: 'carriers',
  attributesSchema: carrierAttributes,
  attributes: ({ name, code, credentials_format, label_formats }) => ({ name, code, credentials_format, label_formats }),
  relationships: {},
  self: (row) => `/carriers/${row.id}`,
  load: (ctx, id) => ctx.services.store.get('carriers', id),
};

export const carrierEndpoints = readEndpoints({
  kind: carrierKind,
  table: 'carriers',
  tag: 'Carriers',
  noun: 'carrier',
  plural: 'carriers',
  auth: 'public',
  schemas: resourceSchemas(carrierKind),
  description: 'No scope is needed; a token, when sent, must be valid.',
});
