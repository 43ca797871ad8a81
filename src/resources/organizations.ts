import { linkTo, type ResourceKind } from '../jsonapi/resource.js';
import { resourceSchemas } from '../jsonapi/schemas.js';
import { brokerAttributes, organizationAttributes, type BrokerRecord, type OrganizationRecord } from '../model/tenancy.js';
import { readEndpoints } from './read-endpoints.js';

export const organizationKind: ResourceKind<OrganizationRecord> = {
  type: 'organizations',
  attributesSchema: organizationAttributes,
  attributes: (row) => ({
    name: row.name,
    company_registration_number: row.company_registration_number,
    billing_address: row.billing_address,
    tax_identification_numbers: row.tax_identification_numbers,
    currency: row.currency,
    created_at: row.created_at,
  }),
  relationships: {
    broker: { targets: ['brokers'], data: (row) => linkTo('brokers', row.broker_id) },
  },
  self: (row) => `/organizations/${row.id}`,
  load: (ctx, id) => ctx.services.store.get('organizations', id),
};

export const brokerKind: ResourceKind<BrokerRecord> = {
  type: 'brokers',
  attributesSchema: brokerAttributes,
  attributes: ({ name, domain, created_at }) => ({ name, domain, created_at }),
  relationships: {},
  self: (row) => `/brokers/${row.id}`,
  load: (ctx, id) => ctx.services.store.get('brokers', id),
};

export const organizationEndpoints = readEndpoints({
  kind: organizationKind,
  table: 'organizations',
  tag: 'Organizations',
  noun: 'organization',
  plural: 'organizations',
  auth: 'token',
  schemas: resourceSchemas(organizationKind),
  description: "A client sees only its own organization; any valid token may read it.",
  visible: (ctx, row) => row.id === ctx.principal?.organizationId,
});

export const brokerEndpoints = readEndpoints({
  kind: brokerKind,
  table: 'brokers',
  tag: 'Organizations',
  noun: 'broker',
  plural: 'brokers',
  auth: 'token',
  schemas: resourceSchemas(brokerKind),
  description: "A client sees only its organization's broker; any valid token may read it.",
  visible: (ctx, row) => row.id === ctx.principal?.brokerId,
});
