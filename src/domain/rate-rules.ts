import type { Price } from '../model/common.js';
import type { ContractRecord } from '../model/contract.js';
import type { ServiceRateRecord } from '../model/service-rate.js';
import type { ReadView } from '../store/store.js';
import { DomainError, within, type Field, type Problem } from './errors.js';
import { bracketPrice } from './rates.js';
import { seesTenantRow } from './tenant-lifetime.js';

/** A rate as it is about to be stored (a new one has no id yet). */
export type RateCandidate = Omit<ServiceRateRecord, 'id'> & { id?: string };

const attribute = (path: string): Field => ({ attribute: path });
/** The id a relationship names, or the id of one entry of a to-many one. */
const relationship = (name: string, index?: number): Field => ({ relationship: `${name}${index === undefined ? '' : `[${index}]`}.id` });

/** Prices of the rate and the field each was sent in (its `currency` and `amount` lie within). */
function pricesOf(rate: RateCandidate): { price: Price; field: Field; member: string }[] {
  const named = (['price', 'fuel_surcharge', 'oversize_surcharge', 'step_price'] as const).flatMap((name) => {
    const price = rate[name];
    return price ? [{ price, field: attribute(name), member: name as string }] : [];
  });
  const options = rate.service_options.flatMap((option, index) =>
    option.price ? [{ price: option.price, field: { relationship: `service_options[${index}].meta.price` }, member: 'service_options' }] : [],
  );
  return [...named, ...options];
}

/**
 * The attribute to blame for a rule two attributes break together: `usual`, unless an update kept
 * it (`sent` names what the update sent; a create sent everything) and sent `other`.
 */
function blamed(sent: ReadonlySet<string> | undefined, usual: string, other: string, path = usual): Field {
  return sent && !sent.has(usual) && sent.has(other) ? attribute(other) : attribute(path);
}

/** Weight ranges, brackets, step pricing and surcharges that agree with each other. */
function shapeProblems(rate: RateCandidate, contract: ContractRecord, sent?: ReadonlySet<string>): Problem[] {
  const problems: Problem[] = [];
  const add = (detail: string, field: Field) => problems.push({ detail, field });
  if (rate.weight_max < rate.weight_min) {
    add(`weight_max (${rate.weight_max} g) is below weight_min (${rate.weight_min} g).`, blamed(sent, 'weight_max', 'weight_min'));
  }
  if (!rate.is_dynamic && !rate.price && !rate.weight_bracket) {
    // An update that removed the bracket, or turned is_dynamic off, beside no price it kept is blamed for it.
    const removed = sent && !sent.has('price') ? ['weight_bracket', 'is_dynamic'].find((member) => sent.has(member)) : undefined;
    add('A rate needs a price or a weight_bracket (or is_dynamic: true).', attribute(removed ?? 'price'));
  }
  if (rate.price && rate.weight_bracket) add('A rate has a price or a weight_bracket, not both.', blamed(sent, 'weight_bracket', 'price'));
  const bracket = rate.weight_bracket;
  if (bracket && (bracket.start < rate.weight_min || bracket.start > rate.weight_max)) {
    add(
      `weight_bracket.start (${bracket.start} g) must lie within weight_min and weight_max (${rate.weight_min}-${rate.weight_max} g).`,
      blamed(sent, 'weight_bracket', bracket.start < rate.weight_min ? 'weight_min' : 'weight_max', 'weight_bracket.start'),
    );
  }
  // The bracket price at the top of the range is the most GET /service-rates answers as bracket_price.
  if (bracket && bracket.size > 0 && !Number.isSafeInteger(bracketPrice(bracket, rate.weight_max))) {
    add(
      `The weight bracket comes to more than ${Number.MAX_SAFE_INTEGER} cents at weight_max (${rate.weight_max} g): no exact price can be given.`,
      blamed(sent, 'weight_bracket', 'weight_max', 'weight_bracket.size_amount'),
    );
  }
  if ((rate.step_price === undefined) !== (rate.step_size === undefined))
    add('step_price and step_size go together.', rate.step_price ? blamed(sent, 'step_size', 'step_price') : blamed(sent, 'step_price', 'step_size'));
  if (rate.oversize_surcharge && rate.length_max === undefined)
    add('An oversize_surcharge is charged above length_max, so length_max is needed.', blamed(sent, 'length_max', 'oversize_surcharge'));
  for (const { price, field, member } of pricesOf(rate)) {
    // A kept price beside the contract an update moved the rate to is the contract's doing.
    const movedAway = sent !== undefined && !sent.has(member) && sent.has('contract');
    if (price.currency !== contract.currency && movedAway) {
      add(`Prices of this contract are in ${contract.currency}, not ${price.currency}: send ${member} in ${contract.currency} too.`, relationship('contract'));
    } else if (price.currency !== contract.currency)
      add(`Prices of this contract are in ${contract.currency}, not ${price.currency}.`, within(field, 'currency'));
    if (price.amount < 0) add('An amount cannot be negative.', within(field, 'amount'));
  }
  return problems;
}

/** The service fits the contract (its carrier, its template) and the options exist, each once. */
function linkProblems(store: ReadView, rate: RateCandidate, contract: ContractRecord, sent?: ReadonlySet<string>): Problem[] {
  const problems: Problem[] = [];
  // The kept service beside the contract an update moved the rate to: the contract is blamed, and asked to come with a service.
  const movedAway = sent !== undefined && !sent.has('service') && sent.has('contract');
  const serviceField = movedAway ? relationship('contract') : relationship('service');
  const sendService = movedAway ? ' Send service too, or another contract.' : '';
  // Rates are written for an organization's own contract: a service a pack gave another tenant is unknown to it.
  const named = store.get('services', rate.service_id);
  const service = named && (contract.owner.type !== 'organizations' || seesTenantRow(store, contract.owner.id, named.organization_id)) ? named : undefined;
  if (!service) problems.push({ detail: `No service with id '${rate.service_id}' exists.`, field: relationship('service') });
  else if (service.carrier_id !== contract.carrier_id)
    problems.push({ detail: `The service '${service.code}' is of another carrier than the contract.${sendService}`, field: serviceField });
  const template = contract.contract_template_id ? store.get('contractTemplates', contract.contract_template_id) : undefined;
  if (service && template && !template.service_ids.includes(service.id)) {
    problems.push({
      detail: `The contract was made from the template '${template.name}', which does not offer the service '${service.code}'.${sendService}`,
      field: serviceField,
    });
  }
  const seen = new Set<string>();
  rate.service_options.forEach((option, index) => {
    if (!store.get('serviceOptions', option.service_option_id)) {
      problems.push({ detail: `No service option with id '${option.service_option_id}' exists.`, field: relationship('service_options', index) });
    } else if (seen.has(option.service_option_id)) {
      problems.push({ detail: `The service option '${option.service_option_id}' is offered twice.`, field: relationship('service_options', index) });
    }
    seen.add(option.service_option_id);
  });
  return problems;
}

/**
 * Where an overlap is blamed: weight_min, unless an update kept the range and moved the rate to
 * another service or contract (then that one).
 */
function overlapField(sent: ReadonlySet<string> | undefined): Field {
  if (!sent || sent.has('weight_min') || sent.has('weight_max')) return blamed(sent, 'weight_min', 'weight_max');
  if (sent.has('service')) return relationship('service');
  return sent.has('contract') ? relationship('contract') : attribute('weight_min');
}

/** Another rate of the same contract and service whose weight range overlaps this one. */
function overlapProblems(store: ReadView, rate: RateCandidate, sent?: ReadonlySet<string>): Problem[] {
  const other = store
    .find('serviceRates', 'contract_id', rate.contract_id)
    .find((row) => row.id !== rate.id && row.service_id === rate.service_id && row.weight_min <= rate.weight_max && rate.weight_min <= row.weight_max);
  if (!other) return [];
  return [
    {
      detail: `The weight range ${rate.weight_min}-${rate.weight_max} g overlaps rate '${other.id}' (${other.weight_min}-${other.weight_max} g) of the same contract and service: a parcel's weight must select one rate.`,
      field: overlapField(sent),
    },
  ];
}

/**
 * Checks a rate of a contract before it is stored: ranges and prices that agree (a bracket within
 * the range, prices in the contract's currency, step pricing complete, oversize with a length),
 * a service of the contract's carrier (and of its template), existing options, and no weight range
 * overlapping another rate of the same contract and service. Every problem is reported at once.
 * `sent`: on an update, the attributes and relationships it sent; a rule it breaks with a kept one blames the one sent.
 */
export function checkRate(store: ReadView, rate: RateCandidate, contract: ContractRecord, sent?: ReadonlySet<string>): void {
  const problems = [...shapeProblems(rate, contract, sent), ...linkProblems(store, rate, contract, sent)];
  if (problems.length === 0) problems.push(...overlapProblems(store, rate, sent));
  if (problems.length > 0) throw new DomainError('unprocessable', problems);
}

/**
 * A contract's currency may change only while no rate or liability coverage of it holds money:
 * prices, weight bracket amounts and coverage prices are in the contract's currency and are not
 * converted, so switching it would leave rates in the old currency (which any later change of
 * them is refused for), bracket prices read in the new one, and a coverage's price added to a
 * shipment price in another currency. Sending the current currency again is no change.
 */
export function checkCurrencyChange(store: ReadView, contract: ContractRecord, currency: string): void {
  if (currency === contract.currency) return;
  const rates = store.find('serviceRates', 'contract_id', contract.id).filter((rate) => rate.weight_bracket || pricesOf(rate).length > 0).length;
  const coverages = store.find('liabilityCoverages', 'contract_id', contract.id).length;
  if (rates + coverages === 0) return;
  const held = [
    rates > 0 ? `${rates} service rate${rates === 1 ? '' : 's'}` : '',
    coverages > 0 ? `${coverages} liability coverage${coverages === 1 ? '' : 's'}` : '',
  ].filter(Boolean);
  throw new DomainError('unprocessable', [
    {
      detail:
        `The contract has ${held.join(' and ')} priced in ${contract.currency}; ` +
        `its currency cannot become ${currency}. Make a new contract in ${currency} instead.`,
      field: attribute('currency'),
    },
  ]);
}
