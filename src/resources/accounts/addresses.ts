import { z } from 'zod';
import { principalOf, type Ctx, type Kind } from '../../http/context.js';
import { csvIds, listHas } from '../../http/params.js';
import { relatedId, resourceRequest, toOneRef, unknownRelated } from '../../jsonapi/request.js';
import { linkTo } from '../../jsonapi/resource.js';
import { resourceSchemas } from '../../jsonapi/schemas.js';
import { addressBookAttributes, type AddressRecord } from '../../model/address-book.js';
import { address } from '../../model/common.js';
import { findOr404 } from '../lookup.js';
import { readEndpoints } from '../read-endpoints.js';
import { writeEndpoints } from '../write-endpoints.js';

/** A client sees and changes only its own organization's address book. */
const visible = (ctx: Ctx, row: AddressRecord): boolean => row.organization_id === ctx.principal?.organizationId;

const fields = Object.keys(address.shape) as (keyof typeof address.shape)[];

export const addressKind: Kind<AddressRecord> = {
  type: 'addresses',
  attributesSchema: addressBookAttributes,
  attributes: (row) => Object.fromEntries(fields.map((field) => [field, row[field]])),
  relationships: {
    organization: { targets: ['organizations'], data: (row) => linkTo('organizations', row.organization_id) },
  },
  self: (row) => `/addresses/${row.id}`,
  load: (ctx, id) => {
    const row = ctx.store.get('addresses', id);
    return row && visible(ctx, row) ? row : undefined;
  },
};

// `Address` names the address object itself.
const schemas = resourceSchemas(addressKind, { name: 'AddressBookEntry' });

// Validated like a shipment's addresses: street_1, city and a real country code are required.
const createRequest = resourceRequest({
  id: 'AddressCreateRequest',
  attributes: address,
  relationships: z.object({ organization: toOneRef }),
});

/** Every field optional; `null` removes an optional one (street_1, city and country_code stay). */
const shape = address.shape;
const updateAttributes = address.partial().extend({
  street_2: shape.street_2.nullable(),
  street_number: shape.street_number.nullable(),
  street_number_suffix: shape.street_number_suffix.nullable(),
  postal_code: shape.postal_code.nullable(),
  state_code: shape.state_code.nullable(),
  first_name: shape.first_name.nullable(),
  last_name: shape.last_name.nullable(),
  company: shape.company.nullable(),
  email: shape.email.nullable(),
  phone_number: shape.phone_number.nullable(),
});

const updateRequest = resourceRequest({
  id: 'AddressUpdateRequest',
  update: true,
  attributes: updateAttributes.default({}),
  // Optional, as in production's update (its `data` requires only `type` and `id`); sent, it must
  // name the organization, as production's relationships object requires.
  relationships: z.object({ organization: toOneRef }).optional().describe('The organization cannot change: leave it out, or send the current one.'),
});

/** The organization named in a write: the caller's own, or 422 as if it did not exist. */
function ownOrganization(ctx: Ctx, ref: z.infer<typeof toOneRef> | undefined, required: boolean): void {
  const id = relatedId(ref, 'organization', ['organizations'], required);
  if (id !== undefined && id !== principalOf(ctx).organizationId) throw unknownRelated('organization', 'organizations', id);
}

const query = z.object({
  'filter[search]': z.string().min(1).max(255).optional().describe('Addresses with this text in any field (case-insensitive).'),
  'filter[organization]': csvIds.optional().describe('Comma separated organization ids (a client only ever sees its own).'),
});

const manage = { anyOf: ['organizations.manage'] } as const;

export const addressEndpoints = [
  ...readEndpoints({
    kind: addressKind,
    table: 'addresses',
    tag: 'Addresses',
    noun: 'address',
    plural: 'addresses',
    auth: { anyOf: ['organizations.manage', 'shipments.manage'] },
    schemas,
    query,
    description: " The caller's organization's address book.",
    rows: (ctx) => ctx.store.find('addresses', 'organization_id', ctx.principal?.organizationId),
    visible,
    filter: (_ctx, rows, q) => {
      const needle = q['filter[search]']?.toLowerCase();
      return rows.filter(
        (row) =>
          (!q['filter[organization]'] || listHas(q['filter[organization]'], row.organization_id)) &&
          (!needle ||
            fields.some((field) =>
              String(row[field] ?? '')
                .toLowerCase()
                .includes(needle),
            )),
      );
    },
  }),
  ...writeEndpoints({
    kind: addressKind,
    table: 'addresses',
    tag: 'Addresses',
    noun: 'address',
    auth: manage,
    schemas,
    own: (ctx, id) => findOr404(ctx, 'addresses', 'addresses', id, (row) => visible(ctx, row)),
    create: {
      summary: 'Add an address to the address book',
      description:
        " Validated like a shipment's addresses (street_1, city and an ISO 3166-1 country_code are required); `relationships.organization` must be the caller's own.",
      body: createRequest,
      answer: 'The new address; `Location` holds its URL.',
      errors: { 409: 'The body `type` is not `addresses` (10007).', 422: "The organization is not the caller's (10008)." },
      insert: (tx, ctx, { attributes, relationships }) => {
        ownOrganization(ctx, relationships.organization, true);
        return tx.insert('addresses', { ...attributes, id: tx.newId(), organization_id: principalOf(ctx).organizationId, created_at: ctx.clock.now() });
      },
    },
    update: {
      summary: 'Change an address of the address book',
      description: ' Only the fields sent change; `null` removes an optional one.',
      body: updateRequest,
      answer: 'The whole updated address.',
      errors: { 409: 'The body `type` or `id` does not match (10007).', 422: 'Another organization (10008).' },
      change: (tx, ctx, row, { attributes, relationships }) => {
        if (relationships) ownOrganization(ctx, relationships.organization, true);
        const changes = Object.fromEntries(Object.entries(attributes).map(([key, value]) => [key, value ?? undefined])) as Partial<AddressRecord>;
        return tx.update('addresses', row.id, changes);
      },
    },
    delete: { summary: 'Remove an address from the address book', description: '', answer: 'Removed.' },
  }),
];
