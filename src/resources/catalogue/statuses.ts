import type { Kind } from '../../http/context.js';
import { resourceSchemas } from '../../jsonapi/schemas.js';
import { statusAttributes, type StatusRecord } from '../../model/status.js';
import { readEndpoints } from '../read-endpoints.js';

export const statusKind: Kind<StatusRecord> = {
  type: 'statuses',
  attributesSchema: statusAttributes,
  // Production's `resource_type` has no `collections`: collection statuses belong to the shipping
  // flow there, so they answer `shipments` (a documented difference of the sandbox's catalogue).
  attributes: ({ code, resource_type, level, name, description }) => ({
    code,
    resource_type: resource_type === 'collections' ? 'shipments' : resource_type,
    level,
    name,
    description,
  }),
  relationships: {},
  self: (row) => `/statuses/${row.id}`,
  load: (ctx, id) => ctx.store.get('statuses', id),
};

export const statusEndpoints = readEndpoints({
  kind: statusKind,
  table: 'statuses',
  tag: 'Statuses',
  noun: 'status',
  plural: 'statuses',
  auth: 'token',
  schemas: resourceSchemas(statusKind),
  description: 'The status catalogue of shipments and collections.',
});
