import { z } from 'zod';
import { organizationOf } from '../../domain/returns/access.js';
import { approvedChart, mostReturnedItems, ordersChart } from '../../domain/returns/analytics.js';
import { endpoint } from '../../http/endpoint.js';
import { csvIds } from '../../http/params.js';
import { plainJson } from '../../http/respond.js';
import { returnsScope } from './common.js';

const TAG = 'Return analytics';
const day = z.string().max(32).describe('Unix seconds, a date (YYYY-MM-DD) or an ISO-8601 date-time with a time zone.');
const shopFilter = csvIds.optional().describe('Comma separated shop ids.');

const chart = z
  .strictObject({
    unit_type: z.enum(['amount']),
    labels: z.array(z.string()),
    datasets: z.array(z.object({ label: z.string(), data: z.array(z.number().int()) })),
  })
  .meta({ id: 'ReturnAnalyticsChart' });
const chartDocument = (id: string) => z.object({ data: chart }).meta({ id });
const mostReturned = z
  .object({
    data: z.array(
      z.strictObject({
        item: z.strictObject({ sku: z.string(), name: z.string(), image_url: z.string().optional(), amount: z.number().int() }),
        return_reasons: z.array(z.object({ code: z.string(), name: z.string(), amount: z.number().int() })),
      }),
    ),
  })
  .meta({ id: 'MostReturnedItems' });

const WINDOW =
  'Labels are days (`YYYY-MM-DD`) from `filter[date_from]` to `filter[date_to]`, by default the 30 days up to today on the sandbox clock, so moving the clock moves the window; one of more than 3660 labels (ten years of days) is 400 at `filter[date_from]`, and a bound past 9999-12-31T23:59:59Z (a day with no `YYYY-MM-DD` label) is 400 at its parameter.';

export const analyticsEndpoints = [
  endpoint({
    method: 'get',
    path: '/returns/v1/analytics/approved',
    operationId: 'getReturnAnalyticsApproved',
    summary: 'Returns requested and approved per day',
    description: `Datasets \`requested\` (by creation) and \`approved\` (by approval) of the caller's returns. ${WINDOW}`,
    tag: TAG,
    auth: returnsScope,
    query: z.object({ 'filter[shop]': shopFilter, 'filter[date_from]': day.optional(), 'filter[date_to]': day.optional() }),
    produces: ['application/json'],
    responses: { 200: { description: 'The chart.', schema: chartDocument('ReturnAnalyticsApproved'), contentTypes: ['application/json'] } },
    handler: (ctx, { query }) =>
      plainJson({
        data: approvedChart(
          ctx.store,
          organizationOf(ctx),
          { shops: query['filter[shop]'], date_from: query['filter[date_from]'], date_to: query['filter[date_to]'] },
          ctx.clock.now(),
        ),
      }),
  }),
  endpoint({
    method: 'get',
    path: '/returns/v1/analytics/orders',
    operationId: 'getReturnAnalyticsOrders',
    summary: 'Orders and returns per day or month',
    description: `Datasets \`orders\` (demo orders placed) and \`returns\` (returns requested). ${WINDOW} With \`group_by=month\` the labels are months (\`YYYY-MM\`).`,
    tag: TAG,
    auth: returnsScope,
    query: z.object({
      'filter[shop]': shopFilter,
      'filter[date_from]': day.optional(),
      'filter[date_to]': day.optional(),
      group_by: z.enum(['day', 'month']).optional(),
    }),
    produces: ['application/json'],
    responses: { 200: { description: 'The chart.', schema: chartDocument('ReturnAnalyticsOrders'), contentTypes: ['application/json'] } },
    handler: (ctx, { query }) =>
      plainJson({
        data: ordersChart(
          ctx.store,
          organizationOf(ctx),
          { shops: query['filter[shop]'], date_from: query['filter[date_from]'], date_to: query['filter[date_to]'], group_by: query.group_by },
          ctx.clock.now(),
        ),
      }),
  }),
  endpoint({
    method: 'get',
    path: '/returns/v1/analytics/most-returned-items',
    operationId: 'getMostReturnedItems',
    summary: 'The items returned most',
    description: `The ten items (by SKU) returned most, by quantity, in returns that still claim them (not rejected, too late or reissued), with the reasons given.`,
    tag: TAG,
    auth: returnsScope,
    query: z.object({ 'filter[shop]': shopFilter }),
    produces: ['application/json'],
    responses: { 200: { description: 'The items.', schema: mostReturned, contentTypes: ['application/json'] } },
    handler: (ctx, { query }) => plainJson({ data: mostReturnedItems(ctx.store, organizationOf(ctx), { shops: query['filter[shop]'] }) }),
  }),
];
