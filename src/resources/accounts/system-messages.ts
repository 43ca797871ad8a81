import { z } from 'zod';
import { missingRelated } from '../../domain/errors.js';
import type { Ctx, Kind } from '../../http/context.js';
import { csvIds, listHas } from '../../http/params.js';
import { relatedId, resourceRequest, toOneRef } from '../../jsonapi/request.js';
import { linkTo } from '../../jsonapi/resource.js';
import { resourceSchemas } from '../../jsonapi/schemas.js';
import { systemMessageAttributes, type SystemMessageRecord } from '../../model/system-message.js';
import type { Tx } from '../../store/store.js';
import { BROKER_ONLY, brokerOnly } from '../acting.js';
import { systemMessageIncludes } from '../include-paths.js';
import { findOr404 } from '../lookup.js';
import { readEndpoints } from '../read-endpoints.js';
import { writeEndpoints } from '../write-endpoints.js';

/** A client sees its own broker's messages (another broker's are 404); the broker (admin token) every message. */
const messageVisible = (ctx: Ctx, row: SystemMessageRecord): boolean => !ctx.principal || row.broker_id === ctx.principal.brokerId;

export const systemMessageKind: Kind<SystemMessageRecord> = {
  type: 'system-messages',
  attributesSchema: systemMessageAttributes,
  attributes: (row) => ({ content: row.content, level: row.level }),
  relationships: {
    broker: { targets: ['brokers'], data: (row) => linkTo('brokers', row.broker_id) },
  },
  self: (row) => `/system-messages/${row.id}`,
  load: (ctx, id) => {
    const row = ctx.store.get('systemMessages', id);
    return row && messageVisible(ctx, row) ? row : undefined;
  },
};

const schemas = resourceSchemas(systemMessageKind);
const writable = { content: z.string().min(1).max(255), level: systemMessageAttributes.shape.level };
const relationships = z.object({ broker: toOneRef });

const createRequest = resourceRequest({ id: 'SystemMessageCreateRequest', attributes: z.strictObject(writable), relationships });
const updateRequest = resourceRequest({
  id: 'SystemMessageUpdateRequest',
  update: true,
  attributes: z.strictObject(writable).partial().default({}),
  // Optional, as in production's update (its `data` requires only `type` and `id`); sent, it must
  // name the broker, and another broker moves the message.
  relationships: relationships.optional(),
});

/** The broker a message is sent for: it must exist. */
function brokerOf(tx: Tx, ref: z.output<typeof toOneRef>): string {
  const brokerId = relatedId(ref, 'broker', ['brokers'])!;
  if (!tx.get('brokers', brokerId)) throw missingRelated('broker', 'brokers', brokerId);
  return brokerId;
}

/** The message of the path: one a client sees is still the broker's to change (403/10013 for its token). */
function ownMessage(ctx: Ctx, id: string): SystemMessageRecord {
  const row = findOr404(ctx, 'systemMessages', 'system-messages', id, (candidate) => messageVisible(ctx, candidate));
  if (ctx.principal) throw brokerOnly('Changing a system message');
  return row;
}

const query = z.object({ 'filter[broker]': csvIds.optional().describe('Comma separated broker ids.') });
const manage = { anyOf: [['broker.member', 'system.manage']], admin: true } as const;
const refused = "A tenant's access token (10013).";

export const systemMessageEndpoints = [
  ...readEndpoints({
    kind: systemMessageKind,
    table: 'systemMessages',
    tag: 'System messages',
    noun: 'system message',
    plural: 'system messages',
    auth: { anyOf: ['broker.member'] },
    schemas,
    query,
    include: systemMessageIncludes,
    getInclude: [],
    description: "The messages of the caller's broker to its organizations, oldest first.",
    visible: messageVisible,
    filter: (_ctx, rows, q) => rows.filter((row) => !q['filter[broker]'] || listHas(q['filter[broker]'], row.broker_id)),
  }),
  ...writeEndpoints({
    kind: systemMessageKind,
    table: 'systemMessages',
    tag: 'System messages',
    noun: 'system message',
    auth: manage,
    schemas,
    own: ownMessage,
    create: {
      summary: 'Create a system message',
      description: `${BROKER_ONLY} A message every organization of \`broker\` sees.`,
      body: createRequest,
      answer: 'The new system message; `Location` holds its URL.',
      errors: { 403: refused, 404: 'An unknown broker (10002).', 409: 'The body `type` is not `system-messages` (10007).' },
      insert: (tx, ctx, data) => {
        if (ctx.principal) throw brokerOnly('Sending a system message');
        const { content, level } = data.attributes;
        return tx.insert('systemMessages', { id: tx.newId(), content, level, broker_id: brokerOf(tx, data.relationships.broker) });
      },
    },
    update: {
      summary: 'Change a system message',
      description: `${BROKER_ONLY} Only the attributes sent change; \`broker\` left out stays, and another broker moves the message.`,
      body: updateRequest,
      answer: 'The whole updated system message.',
      errors: { 403: refused, 404: 'An unknown broker (10002).', 409: 'The body `type` or `id` does not match (10007).' },
      change: (tx, _ctx, row, data) =>
        tx.update('systemMessages', row.id, data.relationships ? { ...data.attributes, broker_id: brokerOf(tx, data.relationships.broker) } : data.attributes),
    },
    delete: {
      summary: 'Delete a system message',
      description: BROKER_ONLY,
      // Production asks system.manage alone here, beside broker.member on the other writes.
      auth: { anyOf: ['system.manage'], admin: true },
      answer: 'Deleted.',
      errors: { 403: refused },
    },
  }),
];
