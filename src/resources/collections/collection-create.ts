import { z } from 'zod';
import { bookingProblems } from '../../domain/collections/booking.js';
import { registerCollection } from '../../domain/collections/lifecycle.js';
import { addShipments, joinProblems, type MembershipFields } from '../../domain/collections/membership.js';
import { DomainError } from '../../domain/errors.js';
import { statusByCode } from '../../domain/shipments/statuses.js';
import { canSeeContract } from '../../domain/tenancy.js';
import { principalOf, type Ctx } from '../../http/context.js';
import { apiErrorOf } from '../../http/domain-errors.js';
import { endpoint } from '../../http/endpoint.js';
import { jsonApi } from '../../http/respond.js';
import { resourceDocument } from '../../jsonapi/document.js';
import { ApiError, errorObject, type ErrorObject } from '../../jsonapi/errors.js';
import { checkIdentity, relatedId, resourceRequest, toManyRef, toOneRef, unknownRelated } from '../../jsonapi/request.js';
import { errorDocument, resourceSchemas } from '../../jsonapi/schemas.js';
import { collectionAttributes, type CollectionRecord } from '../../model/collection.js';
import { address } from '../../model/common.js';
import type { ContractRecord } from '../../model/contract.js';
import type { ShopRecord } from '../../model/shop.js';
import { collectionKind } from './collection-kind.js';
import { collectionIncludes } from '../include-paths.js';
import { collectionTimeInput } from '../collection-time.js';

const schemas = resourceSchemas(collectionKind);

// Clients send whole resources back, so read-only attributes are accepted and ignored.
const readOnly = z.unknown().optional().describe('Read-only: ignored when sent.');

/** Attributes are a closed set, as in production: an unknown attribute is a 400. */
const createAttributes = z
  .strictObject({
    // Production lets both be null, as if left out (PATCH takes null too, to remove them).
    name: collectionAttributes.shape.name.nullable(),
    description: collectionAttributes.shape.description.nullable(),
    address,
    collection_time: collectionTimeInput,
    register: z.boolean().optional().describe('`true` books the collection with the carrier of its contract at once (collection-registered).'),
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
    shipments: toManyRef
      .optional()
      .describe(
        "Shipments that join at once, as POST /add-shipments-to-collection adds them: all or none, each of the collection's shop and contract and not with the carrier yet.",
      ),
  }),
});

type CreateData = z.output<typeof createRequest>['data'];

/** The shipments named on create, where add-shipments-to-collection's rules blame them. */
const SHIPMENT_FIELDS: MembershipFields = {
  collection: { relationship: 'shipments' },
  shipment: (index) => ({ relationship: `shipments[${index}].id` }),
};
const CONTRACT = '/data/relationships/contract/data/id';

/** The contract named, when the caller may use it for a collection; problems otherwise. */
function usableContract(ctx: Ctx, data: CreateData, problems: ErrorObject[]): ContractRecord | undefined {
  const contractId = relatedId(data.relationships.contract, 'contract', ['contracts'], false);
  if (contractId === undefined) return undefined;
  const contract = ctx.store.get('contracts', contractId);
  if (!contract || !canSeeContract(ctx.store, ctx.principal, contract)) {
    problems.push(...unknownRelated('contract', 'contracts', contractId).errors);
    return undefined;
  }
  if (contract.status !== 'active') {
    problems.push(
      errorObject('unprocessable', `Contract '${contractId}' is ${contract.status}; only active contracts can be used for a collection.`, {
        source: { pointer: CONTRACT },
      }),
    );
    return undefined;
  }
  return contract;
}

/**
 * The problems of the shipments named, entry by entry, in the answer with every other problem of
 * the request (as POST /add-shipments-to-collection answers them with the collection's): whether
 * each is a shipment the caller has, and, when the shop and any contract named are usable,
 * whether it may join a collection of them.
 */
function shipmentProblems(ctx: Ctx, data: CreateData, shop: ShopRecord | undefined, contract: ContractRecord | undefined): ErrorObject[] {
  const entries = data.relationships.shipments?.data ?? [];
  if (entries.length === 0) return [];
  const fit = shop !== undefined && (contract !== undefined || !data.relationships.contract?.data);
  const ids = entries.map((entry) => (entry.type === 'shipments' ? entry.id : undefined));
  const collection = { shop_id: shop?.id ?? '', contract_id: contract?.id };
  const { problems } = joinProblems(ctx.store, principalOf(ctx), collection, ids, SHIPMENT_FIELDS, fit);
  const byIndex = new Map(problems.map((entry) => [entry.index, entry.problem]));
  return entries.flatMap((entry, index) => {
    if (entry.type !== 'shipments') {
      return [
        errorObject('unprocessable', `Entries of 'shipments' point at shipments, not '${entry.type}'.`, {
          source: { pointer: `/data/relationships/shipments/data/${index}/type` },
        }),
      ];
    }
    const problem = byIndex.get(index);
    return problem ? apiErrorOf(new DomainError('unprocessable', [problem])).errors : [];
  });
}

/** Every rule violation of a create request, each with its pointer; the shop and contract when usable. */
function checkCreate(ctx: Ctx, data: CreateData): { problems: ErrorObject[]; shop?: ShopRecord; contract?: ContractRecord } {
  const principal = principalOf(ctx);
  const { store } = ctx;
  const problems: ErrorObject[] = [];
  const shopId = relatedId(data.relationships.shop, 'shop', ['shops'])!;
  const found = store.get('shops', shopId);
  const shop = found && found.organization_id === principal.organizationId ? found : undefined;
  if (!shop) problems.push(...unknownRelated('shop', 'shops', shopId).errors);
  const contract = usableContract(ctx, data, problems);
  problems.push(...shipmentProblems(ctx, data, shop, contract));
  if (data.attributes.register === true && !data.relationships.contract?.data) {
    problems.push(
      errorObject('unprocessable', 'Registering books the collection with a carrier: give it a contract.', {
        source: { pointer: '/data/attributes/register' },
      }),
    );
  }
  const { from, to } = data.attributes.collection_time;
  const now = ctx.clock.now();
  const pointer = (member: string) => ({ source: { pointer: `/data/attributes/collection_time/${member}` } });
  // A window that opens now has begun: it would take no shipments, no change and no deletion
  // (add-shipments-to-collection, PATCH and DELETE treat `from <= now` so), so it is refused here too.
  if (from < now)
    problems.push(errorObject('unprocessable', `The collection time lies in the past: 'from' (${from}) is before the current time (${now}).`, pointer('from')));
  else if (from === now)
    problems.push(
      errorObject(
        'unprocessable',
        `The collection window would begin now ('from' is the current time, ${now}): it could take no shipments. Give a 'from' after the current time.`,
        pointer('from'),
      ),
    );
  if (to <= from) problems.push(errorObject('unprocessable', `'to' (${to}) must be after 'from' (${from}).`, pointer('to')));
  if (contract && from > now && to > from) {
    // With a contract the carrier is known: the window must be one of its slots, still bookable.
    const booking = bookingProblems(
      store,
      { contract, countryCode: data.attributes.address.country_code, window: { from, to }, now },
      {
        contract: { relationship: 'contract.id' },
        country: { attribute: 'address.country_code' },
        window: { attribute: 'collection_time' },
      },
    );
    if (booking.problems.length > 0) problems.push(...apiErrorOf(new DomainError('unprocessable', booking.problems)).errors);
  }
  return { problems, shop, contract };
}

async function createCollection(ctx: Ctx, body: z.output<typeof createRequest>, include: readonly string[]): Promise<Response> {
  const { data } = body;
  checkIdentity(data, 'collections');
  const { problems, shop, contract } = checkCreate(ctx, data);
  if (problems.length > 0 || !shop) throw new ApiError(problems);
  const { name, description, address: where, collection_time } = data.attributes;
  const now = ctx.clock.now();
  // Rendered in the transaction: while the collection waits to be durable, another request (a
  // DELETE of a shipment it took in) may change the shipments the answer names.
  const { row, document } = await ctx.store.transact((tx) => {
    const collection: CollectionRecord = tx.insert('collections', {
      id: tx.newId(),
      ...(name != null ? { name } : {}),
      ...(description != null ? { description } : {}),
      address: where,
      collection_time: { from: collection_time.from, to: collection_time.to },
      register: false,
      created_at: now,
      shop_id: shop.id,
      organization_id: shop.organization_id,
      ...(contract ? { contract_id: contract.id } : {}),
      status_id: statusByCode(tx, 'collection-concept').id,
    });
    const shipmentIds = (data.relationships.shipments?.data ?? []).map((entry) => entry.id);
    if (shipmentIds.length > 0) {
      addShipments(tx, principalOf(ctx), { collectionId: collection.id, shipmentIds, now }, SHIPMENT_FIELDS);
    }
    const row = data.attributes.register === true ? registerCollection(tx, ctx.rules, collection) : collection;
    return { row, document: resourceDocument(ctx, collectionKind, row, include) };
  });
  return jsonApi(document, 201, { location: ctx.url(collectionKind.self(row)) });
}

export const collectionCreateEndpoint = endpoint({
  method: 'post',
  path: '/collections',
  operationId: 'createCollection',
  summary: 'Plan or book a collection',
  description:
    "A carrier pick-up at `address` in the window `collection_time {from, to}` (Unix seconds or ISO-8601 date-times, answered as Unix seconds) for one of the caller's shops. " +
    'Without a contract it is a plan (`collection-concept`). With an active contract the window must lie in a slot the carrier still offers ' +
    '(GET /carriers/{carrier_id}/collection-time-slots) at an address in a country it collects in; `register: true` also books it at once: ' +
    "`collection-registered`, with the carrier's reference in `tracking_code`, collected when the window opens. " +
    'Every problem of the request is answered at once, each at its pointer, those of the `shipments` named too; nothing is made then.',
  tag: 'Collections',
  auth: { anyOf: ['collections.manage'] },
  body: createRequest,
  responses: {
    201: { description: 'The new collection; `Location` holds its URL.', schema: schemas.document },
    409: { description: 'The body `type` is not `collections` (10007).', schema: errorDocument },
    422: {
      description:
        "A shop other than the caller's, an unknown or inactive contract, a time window in the past or beginning now, or with `to` not after `from`, a window in no bookable slot of the contract's carrier, `register: true` without a contract, a shipment that cannot join (10008).",
      schema: errorDocument,
    },
  },
  include: collectionIncludes,
  handler: (ctx, { body, include }) => createCollection(ctx, body, include),
});
