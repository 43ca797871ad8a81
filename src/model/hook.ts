import { z } from 'zod';
import { currency, price, timestamp } from './common.js';

const hookOperators = ['==', '!=', '>', '<', '>=', '<=', 'contains', 'in', 'older_than', 'newer_than'] as const;

/** What hooks can run on. */
export const hookResourceTypes = ['shipments', 'shipment-statuses', 'returns'] as const;

/**
 * The resource actions production's triggers name. The sandbox runs `create` triggers, and
 * `update` on shipment-statuses (production's docs name it: a carrier status that joins the
 * current generic status); a hook with another action is kept and listed like any hook, so a
 * client that saves one in production saves it here too, and it never runs.
 */
export const hookResourceActions = ['create', 'read', 'update', 'delete', 'import', 'register'] as const;

/** What hooks can do; the return actions apply to `returns` triggers only. */
export const hookActionTypes = [
  'update-resource',
  'send-resource',
  'approve-return',
  'reject-return',
  'request-payment',
  'set-return-deadline-passed',
  'calculate-landed-cost',
] as const;

/** A JSON Pointer into a resource's attributes or relationships, with or without the leading `/`. */
const resourcePointer = z
  .string()
  .max(255)
  .regex(/^\/?(attributes|relationships)(\/.*)?$/, 'must point into /attributes or /relationships');

/**
 * A pointer into the resource document a predicate reads, as production's schema has it (any text
 * up to 255 characters): `/attributes/...`, `/relationships/...`, a return's `/meta/order_created_at`,
 * or `/type` and `/id`. A pointer at nothing the resource has reads a missing value, for which only
 * `!=` holds.
 */
const predicatePointer = z.string().max(255);

export const predicate = z
  .strictObject({
    pointer: predicatePointer,
    operator: z
      .enum(hookOperators)
      .describe(
        "`>`, `<`, `>=` and `<=` compare numbers (and decimal text) as numbers, other text byte by byte. `in` holds when the value at the pointer is one of the value's list; `older_than` and `newer_than` compare a Unix time with the sandbox clock, their value is seconds or a count and a unit (second, minute, hour, day, week, or a calendar month or year) such as `30 days`; another value is a 422.",
      ),
    // Production's predicate values are strings, numbers, arrays or objects (a boolean or null is
    // refused there, so here too: `"true"` matches a true attribute): a list or an object is
    // compared as a whole by `==`/`!=`, found as an item by `contains`, and a list is what `in` takes.
    value: z.union([z.string(), z.number(), z.array(z.unknown()).max(100), z.record(z.string(), z.unknown())]),
  })
  .refine((p) => p.operator !== 'in' || Array.isArray(p.value), { message: "must be a list for the 'in' operator", path: ['value'] })
  .meta({ id: 'HookPredicate' });

// Production's trigger, predicates, actions and action values are closed objects: a member it does
// not know (a misspelt `tries`) is refused there, so it is refused here rather than dropped.
const hookTrigger = z
  .strictObject({
    resource_type: z.enum(hookResourceTypes),
    resource_action: z
      .enum(hookResourceActions)
      .describe(
        'The sandbox runs `create` triggers, and `update` on `shipment-statuses` (carrier statuses joining the current status, as `POST /update-shipment-status` adds them); hooks with the other actions are kept and listed, and never run.',
      ),
    predicates: z.array(predicate).max(50).optional(),
  })
  .meta({ id: 'HookTrigger' });

export const updateValue = z
  .strictObject({
    pointer: resourcePointer.describe(
      'An attribute (`/attributes/description`) or a relationship: `/relationships/service/data/id` (with an optional `/relationships/service/data/type` value), `/relationships/service/data` ({type, id}) or `/relationships/service` ({data: {type, id}}).',
    ),
    // Production's hook values are strings, objects or arrays: a number or boolean for a numeric
    // or boolean attribute is sent as text ("1800", "true") and converted when the hook runs.
    value: z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())]),
    converter: z.enum(['service-code-to-id']).optional(),
  })
  .meta({ id: 'HookUpdateValue' });

const sendValue = z
  .strictObject({
    // Production's schema caps the URL at 255 characters: a longer one saved here would fail there.
    url: z.url().max(255),
    // Production's schema sets no length for the secret (the body limit bounds it).
    secret: z.string().optional(),
    includes: z.array(z.string()).max(20).optional(),
    tries: z.number().int().min(1).max(24).optional(),
    retry_delay: z.number().int().min(0).max(3600).optional(),
  })
  .meta({ id: 'HookSendValue' });

const hookAction = z
  .discriminatedUnion('action_type', [
    // Production's schema requires the values but not that there is one: an empty list is kept, and does nothing.
    z.strictObject({ action_type: z.literal('update-resource'), values: z.array(updateValue).max(50) }),
    z.strictObject({ action_type: z.literal('send-resource'), values: z.array(sendValue).max(10) }),
    z.strictObject({ action_type: z.literal('approve-return') }),
    z.strictObject({
      action_type: z.literal('reject-return'),
      values: z
        .array(z.strictObject({ message: z.string().max(255).nullable().optional() }))
        .max(10)
        .optional()
        .describe('The first value gives the message; production takes a list, so later ones are kept and unused.'),
    }),
    z.strictObject({
      action_type: z.literal('request-payment'),
      values: z
        // An ISO 4217 currency, as production's Price has it: the price becomes the return's payment.
        .array(z.strictObject({ price: z.strictObject({ amount: z.number().int().min(1), currency }) }))
        .min(1)
        .max(10)
        .describe('The first value gives the price; production takes a list, so later ones are kept and unused.'),
    }),
    z.strictObject({ action_type: z.literal('set-return-deadline-passed') }),
    // Production's action on shipments; kept and listed, but not run (see domain/hooks/engine.ts).
    z.strictObject({
      action_type: z.literal('calculate-landed-cost'),
      values: z
        // Production's Price, closed (the hook is answered as it is saved).
        .array(z.strictObject({ surcharge: price.strict().optional() }))
        .max(10)
        .optional(),
    }),
  ])
  .meta({ id: 'HookAction' });

/** Closed, as production's hook attributes are: an unknown attribute is a 400 on create and update. */
export const hookAttributes = z
  .strictObject({
    // Production's schema bounds the name's length only: an empty name is a name.
    name: z.string().max(255),
    order: z.number().int(),
    active: z.boolean(),
    trigger: hookTrigger,
    action: hookAction,
  })
  .meta({ id: 'HookAttributes' });

export type HookRecord = z.infer<typeof hookAttributes> & {
  id: string;
  owner: { type: 'organizations' | 'shops'; id: string };
  organization_id: string;
  created_at: number;
};

export const hookLogAttributes = z
  .object({ resource_diff: z.record(z.string(), z.unknown()), errors: z.array(z.string()), created_at: timestamp })
  .meta({ id: 'HookLogAttributes' });

/** One outgoing delivery attempt of a send-resource hook. */
export type Delivery = { url: string; attempt: number; tries: number; status?: number };

export type HookLogRecord = z.infer<typeof hookLogAttributes> & {
  id: string;
  hook_id: string;
  resource_type: string;
  resource_id: string;
  /** The shipment the resource is or belongs to, for the shipment's `hook_logs`. */
  shipment_id: string;
  organization_id: string;
  delivery?: Delivery;
};
