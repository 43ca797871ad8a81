import { z } from 'zod';
import { calendarOf, collectsIn, describeCalendar, slotHolding } from '../../model/collection-calendar.js';
import { HORIZON_DAYS, removeSchedule, topUp, windowOn } from '../../domain/collections/schedules.js';
import { canSeeContract } from '../../domain/tenancy.js';
import { principalOf, type Ctx, type Kind } from '../../http/context.js';
import { endpoint } from '../../http/endpoint.js';
import { csvIds, listHas } from '../../http/params.js';
import { jsonApi } from '../../http/respond.js';
import { resourceDocument } from '../../jsonapi/document.js';
import { ApiError, errorObject, type ErrorObject } from '../../jsonapi/errors.js';
import { checkIdentity, relatedId, resourceRequest, toOneRef, unknownRelated } from '../../jsonapi/request.js';
import { linkTo } from '../../jsonapi/resource.js';
import { errorDocument, resourceSchemas } from '../../jsonapi/schemas.js';
import { collectionScheduleAttributes, weekdays, type CollectionScheduleRecord } from '../../model/collection-schedule.js';
import type { ContractRecord } from '../../model/contract.js';
import { findOr404 } from '../lookup.js';
import { readEndpoints } from '../read-endpoints.js';

/*
 * Collection schedules: a recurring booking that books the collections of the coming days on the
 * sandbox clock (src/domain/collections/schedules.ts). Production's scope: collections.manage.
 */

const DAY = 86400;
const manage = { anyOf: ['collections.manage'] } as const;

const visible = (ctx: Ctx, row: CollectionScheduleRecord) => row.organization_id === ctx.principal?.organizationId;

export const collectionScheduleKind: Kind<CollectionScheduleRecord> = {
  type: 'collection-schedules',
  attributesSchema: collectionScheduleAttributes,
  attributes: (row) => ({ days: row.days, collection: row.collection }),
  relationships: {
    shop: { targets: ['shops'], data: (row) => linkTo('shops', row.shop_id) },
    contract: { targets: ['contracts'], optional: true, data: (row) => linkTo('contracts', row.contract_id) },
  },
  self: (row) => `/collection-schedules/${row.id}`,
  load: (ctx, id) => {
    const row = ctx.store.get('collectionSchedules', id);
    return row && visible(ctx, row) ? row : undefined;
  },
};

const schemas = resourceSchemas(collectionScheduleKind);

const query = z.object({
  'filter[shop]': csvIds.optional().describe('Comma separated shop ids.'),
  'filter[carrier]': csvIds.optional().describe('Comma separated carrier ids: schedules whose contract is of one of these carriers.'),
});

const createRequest = resourceRequest({
  id: 'CollectionScheduleCreateRequest',
  attributes: collectionScheduleAttributes,
  relationships: z.object({ shop: toOneRef, contract: toOneRef.optional() }),
});

type CreateData = z.output<typeof createRequest>['data'];
const pointer = (path: string) => ({ source: { pointer: `/data/${path}` } });

/** The carrier's rules for the schedule's days and window (it must collect on each day, in one of its windows). */
function calendarProblems(ctx: Ctx, data: CreateData, contract: ContractRecord, problems: ErrorObject[]): void {
  const carrier = ctx.store.get('carriers', contract.carrier_id)!;
  const calendar = calendarOf(carrier);
  if (!calendar) {
    problems.push(
      errorObject(
        'unprocessable',
        `${carrier.name} does not collect (its collections.offers_collections is false).`,
        pointer('relationships/contract/data/id'),
      ),
    );
    return;
  }
  const { address } = data.attributes.collection;
  if (!collectsIn(calendar, address.country_code)) {
    problems.push(
      errorObject(
        'unprocessable',
        `${carrier.name} does not collect in ${address.country_code}; it collects in ${calendar.countries.join(', ')}.`,
        pointer('attributes/collection/address/country_code'),
      ),
    );
  }
  const today = Math.floor(ctx.clock.now() / DAY) * DAY;
  let outside = false;
  data.attributes.days.forEach((name, index) => {
    // The next date that is this day of the week, and the schedule's window on it.
    const offset = (weekdays.indexOf(name) - ((new Date(today * 1000).getUTCDay() + 6) % 7) + 7) % 7;
    const window = windowOn(data.attributes, today + offset * DAY);
    if (slotHolding(calendar, window)) return;
    if (!calendar.days.includes(new Date(window.from * 1000).getUTCDay())) {
      problems.push(
        errorObject('unprocessable', `${carrier.name} does not collect on ${name} (${describeCalendar(calendar)}).`, pointer(`attributes/days/${index}`)),
      );
    } else outside = true;
  });
  if (outside) {
    problems.push(
      errorObject(
        'unprocessable',
        `The window lies in no collection slot of ${carrier.name} (${describeCalendar(calendar)}).`,
        pointer('attributes/collection/time'),
      ),
    );
  }
}

function checkCreate(ctx: Ctx, data: CreateData): { problems: ErrorObject[]; shopId: string; contract?: ContractRecord } {
  const principal = principalOf(ctx);
  const { store } = ctx;
  const problems: ErrorObject[] = [];
  const shopId = relatedId(data.relationships.shop, 'shop', ['shops'])!;
  if (store.get('shops', shopId)?.organization_id !== principal.organizationId) problems.push(...unknownRelated('shop', 'shops', shopId).errors);
  const window = windowOn(data.attributes, 0);
  if (window.to <= window.from)
    problems.push(errorObject('unprocessable', "'to' must be after 'from' (both in UTC once their zones apply).", pointer('attributes/collection/time/to')));
  const contractId = relatedId(data.relationships.contract, 'contract', ['contracts'], false);
  if (contractId === undefined) return { problems, shopId };
  const contract = store.get('contracts', contractId);
  if (!contract || !canSeeContract(store, principal, contract)) {
    problems.push(...unknownRelated('contract', 'contracts', contractId).errors);
    return { problems, shopId };
  }
  if (contract.status !== 'active') {
    problems.push(
      errorObject(
        'unprocessable',
        `Contract '${contractId}' is ${contract.status}; only an active contract can book collections.`,
        pointer('relationships/contract/data/id'),
      ),
    );
  } else if (window.to > window.from) calendarProblems(ctx, data, contract, problems);
  return { problems, shopId, contract };
}

export const collectionScheduleEndpoints = [
  ...readEndpoints({
    kind: collectionScheduleKind,
    table: 'collectionSchedules',
    tag: 'Collection schedules',
    noun: 'collection schedule',
    plural: 'collection schedules',
    auth: manage,
    schemas,
    query,
    visible,
    rows: (ctx) => ctx.store.find('collectionSchedules', 'organization_id', ctx.principal?.organizationId ?? ''),
    description: "The collection schedules of the caller's organization's shops.",
    filter: (ctx, rows, q) => {
      const carrierOf = (row: CollectionScheduleRecord) => (row.contract_id ? ctx.store.get('contracts', row.contract_id)?.carrier_id : undefined);
      return rows.filter(
        (row) =>
          (!q['filter[shop]'] || listHas(q['filter[shop]'], row.shop_id)) && (!q['filter[carrier]'] || listHas(q['filter[carrier]'], carrierOf(row) ?? '')),
      );
    },
  }),
  endpoint({
    method: 'post',
    path: '/collection-schedules',
    operationId: 'createCollectionSchedule',
    summary: 'Set up a recurring collection',
    description:
      `On each of \`days\` a collection at \`collection.address\` in the window \`collection.time\` (\`HH:MM\`, with a zone such as \`+01:00\`, or UTC without). ` +
      `The schedule books the collections of the next ${HORIZON_DAYS} days at once and then every day at 00:00 UTC on the sandbox clock, skipping days whose booking cut-off has passed; ` +
      'with an active contract they are booked with its carrier (`collection-registered`, collected when the window opens) and the days and window must fit its calendar ' +
      '(GET /carriers/{carrier_id}/collection-time-slots); without one they are plans (`collection-concept`).',
    tag: 'Collection schedules',
    auth: manage,
    body: createRequest,
    responses: {
      201: { description: 'The schedule; `Location` holds its URL. Its first collections exist already.', schema: schemas.document },
      409: { description: 'The body `type` is not `collection-schedules` (10007).', schema: errorDocument },
      422: {
        description:
          "A shop other than the caller's, an unknown or inactive contract, `to` not after `from`, days or a window the carrier does not collect in (10008).",
        schema: errorDocument,
      },
    },
    handler: async (ctx, { body }) => {
      checkIdentity(body.data, 'collection-schedules');
      const { problems, shopId, contract } = checkCreate(ctx, body.data);
      if (problems.length > 0) throw new ApiError(problems);
      const now = ctx.clock.now();
      const row = await ctx.store.transact((tx) => {
        const schedule = tx.insert('collectionSchedules', {
          id: tx.newId(),
          days: body.data.attributes.days,
          collection: body.data.attributes.collection,
          organization_id: principalOf(ctx).organizationId,
          shop_id: shopId,
          ...(contract ? { contract_id: contract.id } : {}),
          created_at: now,
        });
        topUp(tx, ctx.rules, schedule, now);
        return tx.get('collectionSchedules', schedule.id)!;
      });
      return jsonApi(resourceDocument(ctx, collectionScheduleKind, row), 201, { location: ctx.url(collectionScheduleKind.self(row)) });
    },
  }),
  endpoint({
    method: 'delete',
    path: '/collection-schedules/{collection_schedule_id}',
    operationId: 'deleteCollectionSchedule',
    summary: 'Stop a recurring collection',
    description: 'No more collections are booked; the ones it booked already stay (cancel them with DELETE /collections/{collection_id}).',
    tag: 'Collection schedules',
    auth: manage,
    params: z.object({ collection_schedule_id: z.string() }),
    responses: { 204: { description: 'Deleted.' } },
    handler: async (ctx, { params }) => {
      const row = findOr404(ctx, 'collectionSchedules', 'collection-schedules', params.collection_schedule_id, (candidate) => visible(ctx, candidate));
      await ctx.store.transact((tx) => removeSchedule(tx, ctx.rules, row.id));
      return new Response(null, { status: 204 });
    },
  }),
];
