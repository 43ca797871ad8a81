import { z } from 'zod';
import type { Ctx, Kind } from '../../http/context.js';
import { linkTo } from '../../jsonapi/resource.js';
import { resourceSchemas } from '../../jsonapi/schemas.js';
import { hookAttributes, hookLogAttributes, type HookLogRecord, type HookRecord } from '../../model/hook.js';

/** Hooks belong to an organization, directly or through one of its shops. */
export const hookVisible = (ctx: Ctx, row: { organization_id: string }): boolean => row.organization_id === ctx.principal?.organizationId;

export const hookKind: Kind<HookRecord> = {
  type: 'hooks',
  attributesSchema: hookAttributes,
  attributes: ({ name, order, active, trigger, action }) => ({ name, order, active, trigger, action }),
  relationships: {
    owner: { targets: ['organizations', 'shops'], data: (row) => ({ type: row.owner.type, id: row.owner.id }) },
  },
  self: (row) => `/hooks/${row.id}`,
  load: (ctx, id) => {
    const row = ctx.store.get('hooks', id);
    return row && hookVisible(ctx, row) ? row : undefined;
  },
};

export const hookLogKind: Kind<HookLogRecord> = {
  type: 'hook-logs',
  attributesSchema: hookLogAttributes,
  attributes: ({ resource_diff, errors, created_at }) => ({ resource_diff, errors, created_at }),
  relationships: {
    hook: {
      targets: ['hooks'],
      data: (row, ctx) => ({ type: 'hooks', id: row.hook_id, meta: { name: ctx.store.get('hooks', row.hook_id)?.name ?? '' } }),
    },
    resource: {
      targets: ['shipments', 'shipment-statuses', 'returns'],
      data: (row) => linkTo(row.resource_type, row.resource_id),
      related: (row) =>
        row.resource_type === 'shipments'
          ? `/shipments/${row.resource_id}`
          : row.resource_type === 'returns'
            ? `/returns/v1/returns/${row.resource_id}`
            : `/shipments/${row.shipment_id}/statuses/${row.resource_id}`,
    },
  },
  self: (row) => `/hook-logs/${row.id}`,
  meta: (row) => (row.delivery ? { delivery: row.delivery } : undefined),
  load: (ctx, id) => {
    const row = ctx.store.get('hookLogs', id);
    return row && hookVisible(ctx, row) ? row : undefined;
  },
};

export const hookSchemas = resourceSchemas(hookKind);
export const hookLogSchemas = resourceSchemas(hookLogKind, {
  meta: z.object({ delivery: z.object({ url: z.string(), attempt: z.number(), tries: z.number(), status: z.number().optional() }).optional() }),
});
