import type { ReturnMethodRecord } from '../../model/returns/config.js';
import type { ShopRecord } from '../../model/shop.js';
import type { Address } from '../../model/common.js';
import type { Tx } from '../../store/store.js';
import { coversAddress } from '../address-rules.js';
import { DomainError, type Field } from '../errors.js';
import { notOfferedDetail, shipmentOptionProblems } from '../../model/returns/method-options.js';
import { Problems } from '../shipments/problems.js';
import type { Acting } from '../rules.js';
import { canSeeContract } from '../tenancy.js';
import { seesTenantRow } from '../tenant-lifetime.js';
import { organizationOf, ownRow, ownShop } from './access.js';
import { returnAddressOf } from './addresses.js';

/** What a client sends for a return method: its attributes and the ids its relationships name. */
export type MethodInput = Omit<ReturnMethodRecord, 'id' | 'organization_id' | 'created_at' | 'deleted_at'>;

const rel = (name: string): Field => ({ relationship: `${name}.id` });

/**
 * What an update sent (`sent`: the members of its body; a create sent everything), so that a rule
 * it breaks together with a member it kept is blamed on the member it sent, never on one the
 * request did not hold.
 */
class Blame {
  constructor(private readonly sent?: ReadonlySet<string>) {}

  /** Whether the request holds `member` (a create holds every one). */
  has(member: string): boolean {
    return !this.sent || this.sent.has(member);
  }

  /** `usual`, unless the update kept it and sent `other`: then `other`, with what to send beside it. */
  pick(
    detail: string,
    usual: { member: string; field: Field },
    other: { member: string; field: Field },
    hint = `Send ${usual.member} too, or another ${other.member}.`,
  ): [string, Field] {
    if (this.has(usual.member) || !this.has(other.member)) return [detail, usual.field];
    return [`${detail} ${hint}`, other.field];
  }
}

const relation = (name: string) => ({ member: name, field: rel(name) });

/** A service and contract that can carry returns to the method's address; problems at their relationships. */
function checkCarriage(
  acting: Acting,
  input: MethodInput,
  shop: ShopRecord | undefined,
  which: { service: string; contract: string },
  problems: Problems,
  blame: Blame,
): void {
  const { store } = acting.rules;
  const serviceId = which.service === 'service' ? input.service_id : input.recovery_service_id;
  const contractId = which.contract === 'contract' ? input.contract_id : input.recovery_contract_id;
  if (serviceId === undefined && contractId === undefined) return;
  const named = serviceId === undefined ? undefined : store.get('services', serviceId);
  // A service a pack gave another tenant is answered as an unknown one: its existence is not told.
  const service = named && seesTenantRow(store, acting.principal?.organizationId, named.organization_id) ? named : undefined;
  const contract = contractId === undefined ? undefined : store.get('contracts', contractId);
  const service_ = relation(which.service);
  const contract_ = relation(which.contract);
  if (serviceId === undefined)
    problems.add(
      ...blame.pick(
        `A ${which.contract} needs a ${which.service} to go with it.`,
        { member: which.service, field: { relationship: which.service } },
        contract_,
        `Send ${which.service} too.`,
      ),
    );
  else if (!service) problems.add(`No service with id '${serviceId}' exists.`, rel(which.service));
  if (contractId === undefined)
    problems.add(
      ...blame.pick(
        `A ${which.service} needs a ${which.contract} to go with it.`,
        { member: which.contract, field: { relationship: which.contract } },
        service_,
        `Send ${which.contract} too.`,
      ),
    );
  else if (!contract || !canSeeContract(store, acting.principal, contract))
    problems.add(`No contract with id '${contractId}' is available to you.`, rel(which.contract));
  else if (contract.status !== 'active')
    problems.add(`Contract '${contract.name}' is ${contract.status}; only active contracts can carry returns.`, rel(which.contract));
  if (!service || !contract) return;
  if (service.carrier_id !== contract.carrier_id)
    problems.add(...blame.pick(`The ${which.service} and the ${which.contract} belong to different carriers.`, contract_, service_));
  // Its return shipment would need a pickup_location, which no return has: every approval would
  // fail, so the method is refused when it is made rather than when a consumer uses it.
  if (service.delivery_method === 'pick-up') {
    problems.add(
      `Service '${service.code}' delivers to a pick-up point, not to the address returns go to: choose a service whose delivery_method is delivery.`,
      rel(which.service),
    );
  }
  const to = shop && returnAddressOf(shop, input.address);
  if (to && !coversAddress(service.regions_to, to))
    problems.add(
      ...blame.pick(`Service '${service.code}' does not deliver to ${to.country_code}, where these returns go.`, service_, {
        member: 'address',
        field: { attribute: 'address' },
      }),
    );
  if (store.find('serviceRates', 'contract_id', contract.id).every((rate) => rate.service_id !== service.id)) {
    problems.add(...blame.pick(`Contract '${contract.name}' has no rate for service '${service.code}'.`, contract_, service_));
  }
}

/**
 * Every rule of a method at once: its shop, what carries it, its options. `sent`: on an update, the
 * members it sent (attribute and relationship names); a rule broken with a kept member blames the one sent.
 */
function checkMethod(acting: Acting, input: MethodInput, sent?: ReadonlySet<string>): ShopRecord {
  const problems = new Problems();
  const blame = new Blame(sent);
  const shop = ownShop(acting.rules.store, organizationOf(acting), input.shop_id);
  if (!shop) problems.add(`The relationship 'shop' points at shops '${input.shop_id}', which does not exist or is not available to you.`, rel('shop'));
  if (input.return_type === 'shipment' && (input.service_id === undefined || input.contract_id === undefined)) {
    const detail = 'A shipment method needs a service and a contract: the sandbox makes the return label with them.';
    // An update that made the method a shipment one, or removed its service or contract, is blamed for it.
    const removed = (['service', 'contract'] as const).find((name) => sent?.has(name) && input[`${name}_id`] === undefined);
    if (sent?.has('return_type')) problems.add(`${detail} Send service and contract with return_type.`, { attribute: 'return_type' });
    else if (removed) problems.add(detail, { relationship: removed });
    else problems.add(detail, { relationship: '' });
  }
  checkCarriage(acting, input, shop, { service: 'service', contract: 'contract' }, problems, blame);
  checkCarriage(acting, input, shop, { service: 'recovery_service', contract: 'recovery_contract' }, problems, blame);
  const rates = input.contract_id
    ? acting.rules.store.find('serviceRates', 'contract_id', input.contract_id).filter((rate) => rate.service_id === input.service_id)
    : [];
  // Options the update kept, offered no longer by the service or contract it sent, blame that one.
  const changed = ['service', 'contract'].find((name) => blame.has(name));
  input.service_option_ids.forEach((id, index) => {
    const option = acting.rules.store.get('serviceOptions', id);
    const entry: Field = { relationship: `service_options[${index}]` };
    if (!option) problems.add(`No service option with id '${id}' exists.`, entry);
    else if (!rates.some((rate) => rate.service_options.some((offered) => offered.service_option_id === id))) {
      const detail = notOfferedDetail(option.code);
      if (blame.has('service_options') || !changed) problems.add(detail, entry);
      else problems.add(`${detail} Send service_options too, without '${option.code}'.`, rel(changed));
    }
  });
  // Only the options themselves break these rules, so a list an update kept (checked when it was sent) is not judged again.
  // A pack's return methods are held to the same rule (fixtures/check-rules.ts).
  if (blame.has('service_options')) {
    const options = input.service_option_ids.map((id) => acting.rules.store.get('serviceOptions', id));
    for (const { index, detail } of shipmentOptionProblems(options)) problems.add(detail, { relationship: `service_options[${index}]` });
  }
  problems.throwIfAny();
  return shop!;
}

/** Adds a method to one of the caller's shops, after every check of `checkMethod` (422s). */
export function createMethod(tx: Tx, acting: Acting, input: MethodInput): ReturnMethodRecord {
  const shop = checkMethod(acting, input);
  return tx.insert('returnMethods', { ...input, id: tx.newId(), organization_id: shop.organization_id, created_at: acting.rules.clock.now() });
}

/** A method of the caller that is not deleted, or 404. */
export function methodOr404(acting: Acting, id: string): ReturnMethodRecord {
  const method = ownRow(acting, 'returnMethods', id);
  if (!method || method.deleted_at !== undefined) throw DomainError.notFound(`No return-methods resource with id '${id}' exists.`);
  return method;
}

/** Changes `current` (found by `methodOr404`); the whole method is checked again as on create, `sent` naming the members the update sent. */
export function updateMethod(
  tx: Tx,
  acting: Acting,
  current: ReturnMethodRecord,
  changes: Partial<MethodInput>,
  sent: ReadonlySet<string>,
): ReturnMethodRecord {
  const { id: _id, organization_id: _org, created_at: _at, deleted_at: _gone, ...rest } = current;
  checkMethod(acting, { ...rest, ...changes }, sent);
  return tx.update('returnMethods', current.id, changes);
}

/** Marks `method` deleted: consumers can no longer choose it, returns made with it keep it. */
export function deleteMethod(tx: Tx, acting: Acting, method: ReturnMethodRecord): void {
  tx.update('returnMethods', method.id, { deleted_at: acting.rules.clock.now() });
}

/**
 * Whether a method is offered to a consumer in `country`: the country is one of the method's
 * (or it names none), and for a `shipment` method, what carries it still ships from there to the
 * return address.
 */
export function offers(acting: Acting, method: ReturnMethodRecord, shop: ShopRecord, consumer: Pick<Address, 'country_code' | 'postal_code'>): boolean {
  if (method.deleted_at !== undefined) return false;
  if (method.country_codes?.length && !method.country_codes.includes(consumer.country_code)) return false;
  // Only a `shipment` method ships on its service: a self-shipment or a drop-off kept from an
  // earlier type the service and contract it named, which do not limit it.
  if (method.return_type !== 'shipment' || method.service_id === undefined) return true;
  const { store } = acting.rules;
  const service = store.get('services', method.service_id);
  const contract = method.contract_id ? store.get('contracts', method.contract_id) : undefined;
  if (!service || !contract || contract.status !== 'active') return false;
  return coversAddress(service.regions_from, consumer) && coversAddress(service.regions_to, returnAddressOf(shop, method.address));
}

/** The shop's methods a consumer in `country` can use, oldest first. */
export function offeredMethods(acting: Acting, shop: ShopRecord, consumer: Pick<Address, 'country_code' | 'postal_code'>): ReturnMethodRecord[] {
  return acting.rules.store.find('returnMethods', 'shop_id', shop.id).filter((method) => offers(acting, method, shop, consumer));
}
