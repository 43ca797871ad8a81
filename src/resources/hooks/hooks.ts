import { z } from 'zod';
import { DURATION_FORMAT, isDuration } from '../../domain/hooks/durations.js';
import { checkTarget, targetPolicy } from '../../domain/hooks/target-address.js';
import { updateProblems } from '../../domain/hooks/targets.js';
import { assertRoom } from '../../domain/quotas.js';
import { removeHook } from '../../domain/removals.js';
import { Problems } from '../../domain/shipments/problems.js';
import { principalOf, type Ctx } from '../../http/context.js';
import { endpoint } from '../../http/endpoint.js';
import { booleanParam, csvIds, dateFromParam, dateToParam, listHas, orderedRanges } from '../../http/params.js';
import { collectionDocument, resourceDocument } from '../../jsonapi/document.js';
import { jsonApi } from '../../http/respond.js';
import { hookIncludes, webhookIncludes } from '../include-paths.js';
import { errorDocument } from '../../jsonapi/schemas.js';
import { checkIdentity, relatedId, resourceRequest, toOneRef, unknownRelated } from '../../jsonapi/request.js';
import { hookActionTypes, hookAttributes, hookResourceActions, hookResourceTypes, type HookRecord } from '../../model/hook.js';
import { findOr404 } from '../lookup.js';
import { readEndpoints } from '../read-endpoints.js';
import { hookKind, hookLogKind, hookLogSchemas, hookSchemas, hookVisible } from './hook-kinds.js';

const manage = { anyOf: ['organizations.manage'] } as const;
type HookAttributes = z.infer<typeof hookAttributes>;

const createRequest = resourceRequest({
  id: 'HookCreateRequest',
  attributes: hookAttributes,
  relationships: z.object({ owner: toOneRef }),
});
const updateRequest = resourceRequest({
  id: 'HookUpdateRequest',
  update: true,
  attributes: hookAttributes.partial().optional(),
  // Optional, as in production's update (its `data` requires only `type` and `id`); sent, it must
  // name the owner (a writable relationship of its hook schema): another than the hook's moves it
  // between the organization and its shops; other relationships are ignored.
  relationships: z
    .object({ owner: toOneRef })
    .catchall(z.unknown())
    .optional()
    .describe('`owner` (the organization or one of its shops): left out or the current one keeps it, another moves the hook; anything else is ignored.'),
});

/** The owner of a new hook: the caller's organization or one of its shops. */
function ownerOf(ctx: Ctx, ref: z.infer<typeof toOneRef>): HookRecord['owner'] {
  const id = relatedId(ref, 'owner', ['organizations', 'shops'])!;
  const principal = principalOf(ctx);
  if (ref.data!.type === 'organizations') {
    if (id !== principal.organizationId) throw unknownRelated('owner', 'organizations', id);
    return { type: 'organizations', id };
  }
  const shop = ctx.store.get('shops', id);
  if (!shop || shop.organization_id !== principal.organizationId) throw unknownRelated('owner', 'shops', id);
  return { type: 'shops', id };
}

/**
 * Rules a schema cannot say: what each action may point at, and where webhooks may go. A change
 * that sends a trigger without the action is judged on the trigger: a mismatch is blamed on the
 * `resource_type` sent, and the action's own values (kept as they are) are not judged again.
 */
function checkAction(ctx: Ctx, attributes: HookAttributes, actionSent = true): void {
  const problems = new Problems();
  const { action, trigger } = attributes;
  const mismatch = (message: string, member: string) => problems.add(message, { attribute: actionSent ? member : 'trigger.resource_type' });
  if (action.action_type === 'update-resource') {
    if (trigger.resource_type !== 'shipments') mismatch('update-resource can only change shipments; use a shipments trigger.', 'action.action_type');
    if (actionSent)
      for (const problem of updateProblems(action.values)) problems.add(problem.message, { attribute: `action.values[${problem.index}].${problem.field}` });
  } else if (action.action_type === 'calculate-landed-cost') {
    if (trigger.resource_type !== 'shipments') mismatch('calculate-landed-cost acts on shipments; use a shipments trigger.', 'action.action_type');
  } else if (action.action_type !== 'send-resource') {
    // approve-return, reject-return, request-payment, set-return-deadline-passed
    if (trigger.resource_type !== 'returns') mismatch(`${action.action_type} acts on returns; use a returns trigger.`, 'action.action_type');
  } else {
    const policy = targetPolicy(ctx.rules.settings);
    action.values.forEach((value, index) => {
      // A URL kept as it was is checked again when the webhook is sent.
      const checked = actionSent ? checkTarget(value.url, policy) : undefined;
      if (checked && 'refusal' in checked) problems.add(checked.refusal, { attribute: `action.values[${index}].url` });
      const offered = webhookIncludes[trigger.resource_type] ?? [];
      (value.includes ?? []).forEach((path, at) => {
        if (!offered.includes(path))
          mismatch(`Unknown include path '${path}'. ${trigger.resource_type} can include: ${offered.join(', ')}.`, `action.values[${index}].includes[${at}]`);
      });
    });
  }
  problems.throwIfAny();
}

/**
 * A time predicate whose value is no duration would never hold: the hook would be saved and
 * silently never run, so it is refused where its value is. Checked on the trigger sent only (a
 * PATCH of the order does not judge predicates saved before).
 */
function checkPredicates(trigger: HookAttributes['trigger']): void {
  const problems = new Problems();
  (trigger.predicates ?? []).forEach((predicate, index) => {
    if ((predicate.operator === 'older_than' || predicate.operator === 'newer_than') && !isDuration(predicate.value))
      problems.add(`The value of ${predicate.operator} ${DURATION_FORMAT}.`, { attribute: `trigger.predicates[${index}].value` });
  });
  problems.throwIfAny();
}

const query = z.object({
  'filter[owner]': csvIds.optional().describe('Comma separated owner ids (organization or shop).'),
  'filter[action][action_type]': z.enum(hookActionTypes).optional(),
  'filter[trigger][resource_type]': z.enum(hookResourceTypes).optional(),
  'filter[trigger][resource_action]': z.enum(hookResourceActions).optional(),
});

const logQuery = z
  .object({
    'filter[created_at][date_from]': dateFromParam.optional(),
    'filter[created_at][date_to]': dateToParam.optional(),
    'filter[has_errors]': booleanParam.optional(),
  })
  .superRefine(orderedRanges(['filter[created_at][date_from]', 'filter[created_at][date_to]']));

export const hookEndpoints = [
  ...readEndpoints({
    kind: hookKind,
    include: hookIncludes,
    getInclude: [],
    table: 'hooks',
    tag: 'Hooks',
    noun: 'hook',
    plural: 'hooks',
    auth: manage,
    schemas: hookSchemas,
    visible: hookVisible,
    rows: (ctx) => ctx.store.find('hooks', 'organization_id', ctx.principal?.organizationId),
    query,
    description: "Hooks of the caller's organization and its shops.",
    filter: (_ctx, rows, q) =>
      rows.filter(
        (row) =>
          (!q['filter[owner]'] || listHas(q['filter[owner]'], row.owner.id)) &&
          (!q['filter[action][action_type]'] || row.action.action_type === q['filter[action][action_type]']) &&
          (!q['filter[trigger][resource_type]'] || row.trigger.resource_type === q['filter[trigger][resource_type]']) &&
          (!q['filter[trigger][resource_action]'] || row.trigger.resource_action === q['filter[trigger][resource_action]']),
      ),
  }),
  endpoint({
    method: 'post',
    path: '/hooks',
    operationId: 'createHook',
    summary: 'Create a hook',
    description: 'A hook owned by your organization applies to all its shops; shop hooks run first, then organization hooks, lower order first.',
    tag: 'Hooks',
    auth: manage,
    body: createRequest,
    responses: {
      201: { description: 'The new hook.', schema: hookSchemas.document },
      409: { description: 'The body type is not hooks (10007).', schema: errorDocument },
      422: {
        description:
          'An owner of another tenant, an action that cannot apply, or an older_than/newer_than value that is no duration (10008); each error points at its field.',
        schema: errorDocument,
      },
    },
    handler: async (ctx, { body }) => {
      checkIdentity(body.data, 'hooks');
      const owner = ownerOf(ctx, body.data.relationships.owner);
      checkPredicates(body.data.attributes.trigger);
      checkAction(ctx, body.data.attributes);
      const organizationId = principalOf(ctx).organizationId;
      const hook = await ctx.store.transact((tx) => {
        assertRoom(ctx.rules, tx, organizationId, 'hooks');
        return tx.insert('hooks', {
          ...body.data.attributes,
          id: tx.newId(),
          owner,
          organization_id: organizationId,
          created_at: ctx.clock.now(),
        });
      });
      return jsonApi(resourceDocument(ctx, hookKind, hook), 201, { location: ctx.url(hookKind.self(hook)) });
    },
  }),
  endpoint({
    method: 'patch',
    path: '/hooks/{hook_id}',
    operationId: 'updateHook',
    summary: 'Change a hook',
    description:
      'Send only the attributes to change; `relationships.owner`, when sent, is the current owner, or the organization or one of its shops to give the hook to.',
    tag: 'Hooks',
    auth: manage,
    params: z.object({ hook_id: z.string() }),
    body: updateRequest,
    responses: {
      200: { description: 'The whole hook.', schema: hookSchemas.document },
      409: { description: 'The body type or id does not match (10007).', schema: errorDocument },
      422: {
        description:
          'An owner of another tenant, an action that cannot apply, or an older_than/newer_than value that is no duration (10008); each error points at its field.',
        schema: errorDocument,
      },
    },
    handler: async (ctx, { params, body }) => {
      const current = findOr404(ctx, 'hooks', 'hooks', params.hook_id, (row) => hookVisible(ctx, row));
      checkIdentity(body.data, 'hooks', current.id);
      const ownerRef = body.data.relationships?.owner;
      const owner = ownerRef && ownerOf(ctx, ownerRef);
      const merged = { ...current, ...(body.data.attributes ?? {}) };
      if (body.data.attributes?.trigger) checkPredicates(body.data.attributes.trigger);
      checkAction(ctx, merged, body.data.attributes?.action !== undefined);
      const changes = { ...(body.data.attributes ?? {}), ...(owner ? { owner } : {}) };
      const hook = await ctx.store.transact((tx) => tx.update('hooks', current.id, changes));
      return jsonApi(resourceDocument(ctx, hookKind, hook));
    },
  }),
  endpoint({
    method: 'delete',
    path: '/hooks/{hook_id}',
    operationId: 'deleteHook',
    summary: 'Delete a hook',
    description:
      'The hook stops running at once. Its logs go with it (a hook log cannot outlive its hook), also from the `hook_logs` of the shipments it ran on, and so do its pending webhook deliveries.',
    tag: 'Hooks',
    auth: manage,
    params: z.object({ hook_id: z.string() }),
    responses: { 204: { description: 'Deleted, with its logs.' } },
    handler: async (ctx, { params }) => {
      const hook = findOr404(ctx, 'hooks', 'hooks', params.hook_id, (row) => hookVisible(ctx, row));
      await ctx.store.transact((tx) => removeHook(tx, hook.id));
      return new Response(null, { status: 204 });
    },
  }),
  endpoint({
    method: 'get',
    path: '/hooks/{hook_id}/logs',
    operationId: 'listHookLogs',
    summary: 'The logs of a hook',
    description: 'One log per run on a resource, newest first; send-resource hooks log every delivery attempt with the answer status in meta.delivery.',
    tag: 'Hooks',
    auth: { anyOf: ['organizations.manage', 'shipments.manage', 'shipments.view'] },
    params: z.object({ hook_id: z.string() }),
    query: logQuery,
    paginated: true,
    responses: { 200: { description: 'The logs.', schema: hookLogSchemas.list } },
    handler: (ctx, { params, query: q, page, include }) => {
      const hook = findOr404(ctx, 'hooks', 'hooks', params.hook_id, (row) => hookVisible(ctx, row));
      const from = q['filter[created_at][date_from]'];
      const to = q['filter[created_at][date_to]'];
      const rows = ctx.store
        .find('hookLogs', 'hook_id', hook.id)
        .filter(
          (log) =>
            (from === undefined || log.created_at >= from) &&
            (to === undefined || log.created_at <= to) &&
            (q['filter[has_errors]'] === undefined || log.errors.length > 0 === q['filter[has_errors]']),
        )
        .reverse();
      return jsonApi(collectionDocument(ctx, hookLogKind, rows, page, include));
    },
  }),
  endpoint({
    method: 'get',
    path: '/hook-logs/{hook_log_id}',
    operationId: 'getHookLog',
    summary: 'Get a hook log',
    tag: 'Hooks',
    auth: { anyOf: ['organizations.manage', 'shipments.manage', 'shipments.view'] },
    params: z.object({ hook_log_id: z.string() }),
    responses: { 200: { description: 'The hook log.', schema: hookLogSchemas.document } },
    handler: (ctx, { params, include }) =>
      jsonApi(
        resourceDocument(
          ctx,
          hookLogKind,
          findOr404(ctx, 'hookLogs', 'hook-logs', params.hook_log_id, (row) => hookVisible(ctx, row)),
          include,
        ),
      ),
  }),
];
