import type { z } from 'zod';
import type { Acting } from '../rules.js';
import type { updateValue } from '../../model/hook.js';
import { seesTenantRow } from '../tenant-lifetime.js';
import { holdsShipmentAddress } from '../address-rules.js';
import type { HookDocument } from './shipment-document.js';
import { isSet, setAt, valueAt } from './pointer.js';
import { attributeProblem, attributeValue, targetOf, updateProblems, type Target } from './targets.js';

type UpdateValue = z.infer<typeof updateValue>;

/**
 * The id of a service with `code` that ships the document's route and, when the document names
 * a contract, belongs to the contract's carrier.
 */
function serviceCodeToId(ctx: Acting, document: HookDocument, code: string): string | undefined {
  const { store } = ctx.rules;
  const from = document.attributes.sender_address as { country_code: string; state_code?: string; postal_code?: string };
  const to = document.attributes.recipient_address as { country_code: string; state_code?: string; postal_code?: string };
  const contractId = (document.relationships.contract?.data as { id?: string } | null)?.id;
  const carrierId = contractId ? store.get('contracts', contractId)?.carrier_id : undefined;
  return store
    .all('services')
    .find(
      (s) =>
        s.code === code &&
        seesTenantRow(store, ctx.principal?.organizationId, s.organization_id) &&
        holdsShipmentAddress(s.regions_from, from) &&
        holdsShipmentAddress(s.regions_to, to) &&
        (!carrierId || s.carrier_id === carrierId),
    )?.id;
}

/** The id of a to-one relationship in the document, or `undefined` when it is empty. */
const idIn = (document: HookDocument, name: string): string | undefined =>
  (document.relationships[name]?.data as { id?: string } | null | undefined)?.id || undefined;

/** The id a to-one value gives, in whichever form its pointer takes. */
function idOf(part: 'relationship' | 'data' | 'id', value: unknown): string {
  if (part === 'id') return value as string;
  if (part === 'data') return (value as { id: string }).id;
  return (value as { data: { id: string } }).data.id;
}

/**
 * Writes one value into the copy, unless what it targets is already set (a hook never
 * overwrites what the client or an earlier value set). Relationships are always written whole,
 * `{data: {type, id}}`, whatever form the pointer takes: a value at `.../data/type` writes nothing, the
 * id fills in the one type the relationship can have. Returns an error when a converter finds
 * nothing, or when an attribute's pointer names no member of a list the shipment has.
 */
function write(ctx: Acting, next: HookDocument, target: Target, value: UpdateValue): string | undefined {
  if (target.kind === 'attribute') {
    if (isSet(valueAt(next, value.pointer))) return undefined;
    return setAt(next as unknown as Record<string, unknown>, value.pointer, structuredClone(attributeValue(target.path, value.value)));
  }
  if (target.kind === 'to-many') {
    if (isSet(next.relationships[target.name]?.data)) return undefined;
    const list = target.part === 'data' ? value.value : (value.value as { data: unknown }).data;
    next.relationships[target.name] = { data: structuredClone(list) };
    return undefined;
  }
  if (target.part === 'type' || idIn(next, target.name)) return undefined;
  let id: string | undefined;
  if (value.converter === 'service-code-to-id') {
    id = serviceCodeToId(ctx, next, String(value.value));
    if (id === undefined) return `No service with code '${String(value.value)}' fits the route and contract of this shipment.`;
  } else {
    id = idOf(target.part, value.value);
  }
  next.relationships[target.name] = { data: { type: target.type, id } };
  return undefined;
}

/**
 * Applies an update-resource action to a copy of the document. If any value cannot apply, the
 * action changes nothing and the errors say why (a hook stored before a rule existed is judged
 * by today's rules). Returns the changed copy and the errors.
 */
export function applyUpdate(ctx: Acting, document: HookDocument, values: readonly UpdateValue[]): { document: HookDocument; errors: string[] } {
  const problems = updateProblems(values);
  if (problems.length > 0) return { document, errors: problems.map((p) => `Value ${p.index}: ${p.message}`) };
  const next = structuredClone(document);
  const errors: string[] = [];
  const touched = new Set<string>();
  for (const value of values) {
    const target = targetOf(value.pointer) as Target;
    if (target.kind === 'attribute' && target.path.length > 1) touched.add(target.path[0]!);
    const error = write(ctx, next, target, value);
    if (error) errors.push(error);
  }
  // A value at a member (`/attributes/items/0/quantity`) fits its member, yet may leave the
  // attribute it belongs to incomplete: the whole attribute must still be one a shipment holds.
  for (const name of touched) {
    const problem = attributeProblem(name, next.attributes[name]);
    if (problem) errors.push(problem);
  }
  return { document: next, errors };
}
