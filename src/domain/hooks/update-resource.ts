import type { z } from 'zod';
import type { Ctx } from '../../http/context.js';
import type { updateValue } from '../../model/hook.js';
import { coversAddress } from '../address-rules.js';
import type { HookDocument } from './shipment-document.js';
import { isSet, setAt, tokens, valueAt } from './pointer.js';
import { TO_ONE, updateProblem } from './targets.js';

type UpdateValue = z.infer<typeof updateValue>;

/**
 * The id of a service with `code` that ships the document's route and, when the document names
 * a contract, belongs to the contract's carrier.
 */
function serviceCodeToId(ctx: Ctx, document: HookDocument, code: string): string | undefined {
  const { store } = ctx.services;
  const from = document.attributes.sender_address as { country_code: string; postal_code?: string };
  const to = document.attributes.recipient_address as { country_code: string; postal_code?: string };
  const contractId = (document.relationships.contract?.data as { id?: string } | null)?.id;
  const carrierId = contractId ? store.get('contracts', contractId)?.carrier_id : undefined;
  return store
    .all('services')
    .find((s) => s.code === code && coversAddress(s.regions_from, from) && coversAddress(s.regions_to, to) && (!carrierId || s.carrier_id === carrierId))?.id;
}

/** Writes one value into the document, in the shape its pointer names. */
function write(document: HookDocument, pointer: string, value: unknown): void {
  const [root, name, ...rest] = tokens(pointer);
  if (root === 'relationships' && name && Object.hasOwn(TO_ONE, name) && rest.join('/') === 'data/id') {
    document.relationships[name] = { data: { type: TO_ONE[name as keyof typeof TO_ONE], id: value } };
    return;
  }
  setAt(document as unknown as Record<string, unknown>, pointer, structuredClone(value));
}

/**
 * Applies an update-resource action to a copy of the document. A value whose target is already
 * set is left alone (a hook never overwrites what the client or an earlier hook set); a value
 * that cannot apply is an error. Returns the changed copy and the errors.
 */
export function applyUpdate(ctx: Ctx, document: HookDocument, values: readonly UpdateValue[]): { document: HookDocument; errors: string[] } {
  const next = structuredClone(document);
  const errors: string[] = [];
  for (const value of values) {
    const problem = updateProblem(value.pointer, value.value, value.converter);
    if (problem) {
      errors.push(problem.message);
      continue;
    }
    if (isSet(valueAt(next, value.pointer))) continue;
    let resolved = value.value;
    if (value.converter === 'service-code-to-id') {
      resolved = serviceCodeToId(ctx, next, String(value.value));
      if (resolved === undefined) {
        errors.push(`No service with code '${String(value.value)}' fits the route and contract of this shipment.`);
        continue;
      }
      if (tokens(value.pointer).join('/') === 'relationships/service/data') resolved = { type: 'services', id: resolved };
    }
    write(next, value.pointer, resolved);
  }
  return { document: next, errors };
}
