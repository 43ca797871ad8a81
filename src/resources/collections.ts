import { z } from 'zod';
import { canSeeContract } from '../domain/tenancy.js';
import { principalOf, type Ctx } from '../http/context.js';
import { endpoint } from '../http/endpoint.js';
import { csvIds, csvOf } from '../http/params.js';
import { resourceDocument } from '../jsonapi/document.js';
import { jsonApi } from '../http/respond.js';
import { ApiError, errorObject, type ErrorObject } from '../jsonapi/errors.js';
import { checkIdentity, relatedId, resourceRequest, toManyRef, toOneRef, unknownRelated } from '../jsonapi/request.js';
import { errorDocument, resourceSchemas } from '../jsonapi/schemas.js';
import { collectionAttributes, type CollectionRecord } from '../model/collection.js';
import { address, timestamp } from '../model/common.js';
import type { ShopRecord } from '../model/shop.js';
import type { StatusRecord } from '../model/status.js';
import { collectionKind, collectionStatusCodes, collectionVisible, type CollectionStatusCode } from './collection-kind.js';
import { readEndpoints } from './read-endpoints.js';
import { collectionIncludes } from './include-paths.js';

/*
 * Scopes. Production guards collections with `collections.view` / `collections.manage`, scopes the
 * API spec this sandbox follows does not have; the sandbox behaviour spec (section 5) says
 * collections need any valid token. Tenancy still limits a client to its own shops' collections.
 */
const readScopes = 'token' as const;
const writeScopes = 'token' as const;

/** The status new collections start in. */
export const NEW_COLLECTION_STATUS: CollectionStatusCode = 'collection-concept';

const schemas = resourceSchemas(collectionKind);

/** A `YYYY-MM-DD` that names a real calendar day. */
const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date in the form YYYY-MM-DD')
  .refine((raw) => {
    const day = new Date(`${raw}T00:00:00Z`);
    return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(raw);
  }, 'is not a calendar date');

const query = z.object({
  'filter[shop]': csvIds.optional().describe('Comma separated shop ids.'),
  'filter[status]': csvOf(collectionStatusCodes).optional().describe('Comma separated status codes, e.g. `collection-concept`.'),
  'filter[carrier]': csvIds.optional().describe("Comma separated carrier ids: collections whose contract is of one of these carriers."),
  'filter[collection_date]': isoDate.optional().describe('YYYY-MM-DD: collections whose `collection_time.from` falls on this day (UTC).'),
});

/** The UTC day (`YYYY-MM-DD`) of a Unix time. */
const utcDay = (seconds: number): string => new Date(seconds * 1000).toISOString().slice(0, 10);

/** Unix seconds, or an ISO-8601 date-time with a zone (`Z` or `+02:00`), turned into Unix seconds. */
const unixOrIso = z.union([
  timestamp,
  z.iso.datetime({ offset: true, error: () => 'must be Unix seconds or an ISO-8601 date-time with a time zone' }).transform((raw) => Math.floor(Date.parse(raw) / 1000)),
]);

const timeInput = z
  .strictObject({ from: unixOrIso, to: unixOrIso })
  .describe('Unix seconds or ISO-8601 date-times; answered as Unix seconds.')
  .meta({ id: 'CollectionTimeInput' });

// Clients send whole resources back, so read-only attributes are accepted and ignored.
const readOnly = z.unknown().optional().describe('Read-only: ignored when sent.');

/** Attributes are a closed set, as in production: an unknown attribute is a 400. */
const createAttributes = z
  .strictObject({
    name: collectionAttributes.shape.name,
    description: collectionAttributes.shape.description,
    address,
    collection_time: timeInput,
    register: z.boolean().optional().describe('The sandbox does not register collections with carriers: only `false` is accepted.'),
    tracking_code: readOnly,
    created_at: readOnly,
  })
  .meta({ id: 'CollectionCreateAttributes' });

const createRequest = resourceRequest({
  id: 'CollectionCreateRequest',
  attributes: createAttributes,
  relationships: z.object({
    shop: toOneRef,
    contract: toOneRef.optional(),
    shipments: toManyRef.optional().describe('Must be empty: shipments join a collection through their own `collection` relationship.'),
  }),
});

type CreateData = z.output<typeof createRequest>['data'];

/** The status row of a code; the statuses catalogue always holds the collection codes. */
function statusByCode(ctx: Ctx, code: string): StatusRecord {
  const status = ctx.services.store.find('statuses', 'code', code)[0];
  if (!status) throw new Error(`status '${code}' is missing from the statuses table`);
  return status;
}

/** Every rule violation of a create request, each with its pointer; the shop when it is usable. */
function checkCreate(ctx: Ctx, data: CreateData): { problems: ErrorObject[]; shop?: ShopRecord; contractId?: string } {
  const principal = principalOf(ctx);
  const { store } = ctx.services;
  const problems: ErrorObject[] = [];

  const shopId = relatedId(data.relationships.shop, 'shop', ['shops'])!;
  const shop = store.get('shops', shopId);
  const usableShop = shop && shop.organization_id === principal.organizationId ? shop : undefined;
  if (!usableShop) problems.push(...unknownRelated('shop', 'shops', shopId).errors);

  const contractId = relatedId(data.relationships.contract, 'contract', ['contracts'], false);
  if (contractId !== undefined) {
    const contract = store.get('contracts', contractId);
    if (!contract || !canSeeContract(principal, contract)) {
      problems.push(...unknownRelated('contract', 'contracts', contractId).errors);
    } else if (contract.status !== 'active') {
      problems.push(
        errorObject('unprocessable', `Contract '${contractId}' is ${contract.status}; only active contracts can be used for a collection.`, {
          source: { pointer: '/data/relationships/contract/data/id' },
        }),
      );
    }
  }

  if ((data.relationships.shipments?.data.length ?? 0) > 0) {
    problems.push(
      errorObject(
        'unprocessable',
        'Shipments cannot be added when a collection is created: create the collection first, then give shipments a `collection` relationship (or `meta.add_to_next_collection`).',
        { source: { pointer: '/data/relationships/shipments' } },
      ),
    );
  }
  if (data.attributes.register === true) {
    problems.push(
      errorObject('unprocessable', 'The sandbox does not register collections with carriers; leave `register` out or send false.', {
        source: { pointer: '/data/attributes/register' },
      }),
    );
  }

  const { from, to } = data.attributes.collection_time;
  const now = ctx.services.clock.now();
  if (from < now) {
    problems.push(
      errorObject('unprocessable', `The collection time lies in the past: 'from' (${from}) is before the current time (${now}).`, {
        source: { pointer: '/data/attributes/collection_time/from' },
      }),
    );
  }
  if (to <= from) {
    problems.push(
      errorObject('unprocessable', `'to' (${to}) must be after 'from' (${from}).`, { source: { pointer: '/data/attributes/collection_time/to' } }),
    );
  }
  return { problems, shop: usableShop, contractId };
}

async function createCollection(ctx: Ctx, body: z.output<typeof createRequest>, include: readonly string[]): Promise<Response> {
  const { data } = body;
  checkIdentity(data, 'collections');
  const { problems, shop, contractId } = checkCreate(ctx, data);
  if (problems.length > 0 || !shop) throw new ApiError(problems);
  const { name, description, address: where, collection_time } = data.attributes;
  const status = statusByCode(ctx, NEW_COLLECTION_STATUS);
  const now = ctx.services.clock.now();
  const row = await ctx.services.store.transact((tx) => {
    const collection: CollectionRecord = {
      id: tx.newId(),
      ...(name !== undefined ? { name } : {}),
      ...(description !== undefined ? { description } : {}),
      address: where,
      collection_time: { from: collection_time.from, to: collection_time.to },
      register: false,
      created_at: now,
      shop_id: shop.id,
      organization_id: shop.organization_id,
      ...(contractId !== undefined ? { contract_id: contractId } : {}),
      status_id: status.id,
    };
    return tx.insert('collections', collection);
  });
  return jsonApi(resourceDocument(ctx, collectionKind, row, include), 201, { location: ctx.url(collectionKind.self(row)) });
}

/** Collections in time order: the next pick-up first. */
const byTime = (a: CollectionRecord, b: CollectionRecord): number =>
  a.collection_time.from - b.collection_time.from || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export const collectionEndpoints = [
  ...readEndpoints({
    kind: collectionKind,
    include: collectionIncludes,
    table: 'collections',
    tag: 'Collections',
    noun: 'collection',
    plural: 'collections',
    auth: readScopes,
    schemas,
    query,
    visible: collectionVisible,
    description:
      "Carrier pick-ups of the caller's organization's shops, ordered by `collection_time.from`. Any valid token may read them " +
      '(production uses collections.* scopes, which this API does not have).',
    filter: (ctx, rows, q) => {
      const { store } = ctx.services;
      const statusCode = (row: CollectionRecord) => store.get('statuses', row.status_id)?.code as CollectionStatusCode | undefined;
      const carrierOf = (row: CollectionRecord) => (row.contract_id ? store.get('contracts', row.contract_id)?.carrier_id : undefined);
      return rows
        .filter(
          (row) =>
            (!q['filter[shop]'] || q['filter[shop]'].includes(row.shop_id)) &&
            (!q['filter[status]'] || q['filter[status]'].includes(statusCode(row)!)) &&
            (!q['filter[carrier]'] || q['filter[carrier]'].includes(carrierOf(row) ?? '')) &&
            (!q['filter[collection_date]'] || utcDay(row.collection_time.from) === q['filter[collection_date]']),
        )
        .sort(byTime);
    },
  }),
  endpoint({
    method: 'post',
    path: '/collections',
    operationId: 'createCollection',
    summary: 'Plan a collection',
    description:
      "A carrier pick-up at `address` in the window `collection_time {from, to}` (Unix seconds or ISO-8601 date-times, answered as Unix seconds) for one of the caller's shops, " +
      'optionally under an active contract. New collections are `collection-concept`. Any valid token may create them (production: collections.manage).',
    tag: 'Collections',
    auth: writeScopes,
    body: createRequest,
    responses: {
      201: { description: 'The new collection; `Location` holds its URL.', schema: schemas.document },
      409: { description: 'The body `type` is not `collections` (10007).', schema: errorDocument },
      422: {
        description: "A shop other than the caller's, an unknown or inactive contract, a time window in the past or with `to` not after `from` (10008).",
        schema: errorDocument,
      },
    },
    handler: (ctx, { body, include }) => createCollection(ctx, body, include),
  }),
];
