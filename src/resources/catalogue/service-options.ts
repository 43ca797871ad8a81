import type { Kind } from '../../http/context.js';
import { resourceSchemas } from '../../jsonapi/schemas.js';
import { serviceOptionAttributes, type ServiceOptionRecord } from '../../model/service-option.js';
import { readEndpoints } from '../read-endpoints.js';

export const serviceOptionKind: Kind<ServiceOptionRecord> = {
  type: 'service-options',
  attributesSchema: serviceOptionAttributes,
  attributes: ({ name, code, category, values_format }) => ({ name, code, category, values_format }),
  relationships: {},
  self: (row) => `/service-options/${row.id}`,
  load: (ctx, id) => ctx.store.get('serviceOptions', id),
};

export const serviceOptionEndpoints = readEndpoints({
  kind: serviceOptionKind,
  table: 'serviceOptions',
  tag: 'Service options',
  noun: 'service option',
  plural: 'service options',
  auth: 'token',
  schemas: resourceSchemas(serviceOptionKind),
  description: 'The price of an option comes from the service rate that offers it.',
});
