import type { Acting } from '../rules.js';
import type { CarrierRecord } from '../../model/carrier.js';
import type { ServiceRateRecord } from '../../model/service-rate.js';
import { categoryClashes } from '../../model/service-option.js';
import type { ChosenOption, LabelChoice } from '../../model/shipment.js';
import { schemaProblems } from '../../model/json-schema.js';
import { fields, keptAttribute, type ShipmentDraft } from './draft.js';
import type { Problems } from './problems.js';
import type { Field } from '../errors.js';

const INVOICED = ['merchandise', 'sample_merchandise', 'returned_merchandise'];

/**
 * International shipments need a description, items with value and origin, and customs data. On an
 * update that made the shipment international by sending an address, what it lacks of the content
 * it kept is blamed on that address's country code, the detail asking for the member too.
 */
export function checkContent(draft: ShipmentDraft, international: boolean, problems: Problems): void {
  const { description, items, customs } = draft.attributes;
  if (customs?.content_type && INVOICED.includes(customs.content_type) && !customs.invoice_number) {
    problems.add(`An invoice_number is required for content_type '${customs.content_type}'.`, fields.attribute('customs.invoice_number'));
  }
  if (!international) return;
  const why = 'is required for international shipments (sender and recipient in different countries)';
  const moved = (['recipient_address', 'sender_address'] as const).find((address) => !keptAttribute(draft, address));
  const lacks = (member: 'description' | 'customs' | 'items', path: string, detail: string) => {
    // Blamed away from its own member, the detail names the member in full (items[0].item_value).
    if (moved && keptAttribute(draft, member)) problems.add(`${path} ${why}. Send ${member} too.`, fields.attribute(`${moved}.country_code`));
    else problems.add(detail, fields.attribute(path));
  };
  if (!description) lacks('description', 'description', `description ${why}.`);
  if (!customs) lacks('customs', 'customs', `customs ${why}.`);
  // Production's schema leaves them optional; the customs declaration (CN23) cannot be made without them.
  for (const member of ['content_type', 'non_delivery', 'incoterm'] as const) {
    if (customs && customs[member] === undefined) lacks('customs', `customs.${member}`, `customs.${member} ${why}.`);
  }
  if (!items || items.length === 0) {
    lacks('items', 'items', `items ${why}.`);
    return;
  }
  items.forEach((item, index) => {
    if (!item.item_value) lacks('items', `items[${index}].item_value`, `item_value ${why}.`);
    if (!item.origin_country_code) lacks('items', `items[${index}].origin_country_code`, `origin_country_code ${why}.`);
  });
}

/**
 * Service options must exist, be offered by the shipment's rate, be at most one per category and
 * carry the values their `values_format` asks for. `changedRate`: the options are the shipment's
 * own, kept by an update that changed what chooses the rate; an option the new rate does not offer
 * is blamed on that member of the update. `kept`: the options are the shipment's own, kept by an
 * update that changed nothing choosing the rate (the rate itself changed since): the detail says so.
 */
export function checkOptions(
  ctx: Acting,
  chosen: readonly ChosenOption[],
  rate: ServiceRateRecord | undefined,
  problems: Problems,
  changedRate?: Field,
  kept = false,
): ChosenOption[] {
  const found = chosen.map((choice) => ctx.rules.store.get('serviceOptions', choice.id));
  const clashes = categoryClashes(found);
  chosen.forEach((choice, index) => {
    const option = found[index];
    if (!option) {
      problems.add(`No service option with id '${choice.id}' exists.`, fields.option(index));
      return;
    }
    const clash = clashes.get(index);
    if (clash) problems.add(`${clash.detail}${clash.twice ? ': send it once.' : '.'}`, fields.option(index));
    if (rate && !rate.service_options.some((offered) => offered.service_option_id === option.id)) {
      const detail = changedRate
        ? `Service option '${option.code}' (entry ${index} of the shipment's service_options) is not offered with this service and contract: send service_options too.`
        : kept
          ? `The shipment's service option '${option.code}' (entry ${index} of its service_options) is no longer offered with its service and contract: send service_options without it.`
          : `Service option '${option.code}' is not offered with this service and contract.`;
      problems.add(detail, changedRate ?? fields.option(index));
    }
    if (option.values_format) {
      for (const problem of schemaProblems(option.values_format, choice.values ?? {}, 'values')) {
        problems.add(`Service option '${option.code}': ${problem}`, fields.option(index, 'meta.values'));
      }
    }
  });
  return [...chosen];
}

/**
 * The label format: as asked, if the carrier offers it; by default a PDF in A6. `kept`: the format
 * is the shipment's from an earlier request, and `field` names what in this one changed the carrier.
 */
export function chooseLabel(
  asked: LabelChoice | undefined,
  carrier: CarrierRecord | undefined,
  problems: Problems,
  field: Field = fields.meta('label'),
  kept = false,
): LabelChoice {
  const wanted = { mime_type: asked?.mime_type ?? 'application/pdf', size: asked?.size ?? 'A6' };
  const offered = carrier?.label_formats.find((f) => f.mime_type === wanted.mime_type && f.size === wanted.size);
  if (carrier && !offered) {
    const formats = carrier.label_formats.map((f) => `${f.mime_type} ${f.size}`).join(', ');
    problems.add(
      kept
        ? `The shipment's labels are ${wanted.mime_type} in ${wanted.size} (meta.label of an earlier request), which ${carrier.name} does not offer; it offers ${formats}: send meta.label with one of them.`
        : `${carrier.name} does not offer ${wanted.mime_type} labels in ${wanted.size}; it offers ${formats}.`,
      field,
    );
  }
  // The carrier's own (frozen) format when it is the same: every stored shipment then shares it.
  return offered && Object.keys(offered).join() === 'mime_type,size' ? offered : wanted;
}
