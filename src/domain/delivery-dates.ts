import { createHash } from 'node:crypto';
import type { CarrierRecord } from '../model/carrier.js';
import type { ServiceRecord } from '../model/service.js';
import { weekDays } from '../model/service.js';
import { seesTenantRow } from './tenant-lifetime.js';
import { coversAddress } from './address-rules.js';
import type { Field } from './errors.js';
import type { Rules } from './rules.js';
import { Problems } from './shipments/problems.js';
import { addDays, isoInZone, localAt, weekday, zonedMs, type Day } from './zoned-time.js';

export interface DeliveryDatesRequest {
  carrierCode: string;
  serviceCode: string;
  optionCodes: readonly string[];
  address: { country_code: string; postal_code: string; street_number: number };
  /** Unix milliseconds. */
  start: number;
  end: number;
}

export interface DeliveryWindow {
  date_from: string;
  date_to: string;
}

/** Local time of the countries the catalogue delivers to; windows are written with their offset. */
const ZONES: Record<string, string> = { NL: 'Europe/Amsterdam', BE: 'Europe/Brussels', DE: 'Europe/Berlin', FR: 'Europe/Paris', GB: 'Europe/London' };
/** A parcel handed in after this local hour leaves the next working day. */
const CUT_OFF_HOUR = 17;
/** Carriers take parcels in on working days, Monday to Friday. */
const WORKING_DAYS = new Set([1, 2, 3, 4, 5]);
export const MAX_RANGE_DAYS = 31;
/** Fixed windows of the delivery-window options; other deliveries get a three-hour window of the day. */
const OPTION_WINDOWS: Record<string, [number, number]> = { 'delivery-window:morning': [8, 12], 'delivery-window:evening': [18, 22] };

const DAY_MS = 86_400_000;
const nameOf = (day: Day) => (weekDays as readonly string[])[(weekday(day) + 6) % 7]!;

/** The carrier, service and options of a request, or every reason they do not fit together. */
function resolve(rules: Rules, request: DeliveryDatesRequest, problems: Problems): { carrier?: CarrierRecord; service?: ServiceRecord; optionCodes: string[] } {
  const { store } = rules;
  const carrier = store.all('carriers').find((c) => c.code === request.carrierCode && seesTenantRow(store, rules.organizationId, c.organization_id));
  if (!carrier) {
    problems.add(`No carrier has the code '${request.carrierCode}'; GET /carriers lists them.`, { input: 'carrier_code' });
    return { optionCodes: [] };
  }
  if (!carrier.delivery_dates?.can_get_delivery_dates) {
    problems.add(`${carrier.name} does not tell delivery dates (its delivery_dates.can_get_delivery_dates is false).`, { input: 'carrier_code' });
  }
  const services = store.find('services', 'carrier_id', carrier.id).filter((s) => s.code === request.serviceCode);
  const service = services.find((s) => coversAddress(s.regions_to, request.address));
  if (services.length === 0) problems.add(`${carrier.name} has no service '${request.serviceCode}'.`, { input: 'service_code' });
  else if (!service)
    problems.add(`Service '${request.serviceCode}' does not deliver to ${request.address.country_code} ${request.address.postal_code}.`, {
      input: 'address.country_code',
    });
  const rates = service ? store.find('serviceRates', 'service_id', service.id) : [];
  request.optionCodes.forEach((code, index) => {
    const field: Field = { input: `service_option_codes[${index}]` };
    const option = store.all('serviceOptions').find((o) => o.code === code);
    if (!option) problems.add(`No service option has the code '${code}'.`, field);
    else if (index > 0) problems.add('Only one delivery window can be asked for at a time.', field);
    else if (service && !rates.some((rate) => rate.service_options.some((offered) => offered.service_option_id === option.id))) {
      problems.add(`Service '${service.code}' does not offer '${code}'.`, field);
    }
  });
  return { carrier, service, optionCodes: [...request.optionCodes] };
}

function checkRange(request: DeliveryDatesRequest, todayStart: number, problems: Problems): void {
  if (request.start < todayStart) problems.add('start_date lies before today on the sandbox clock.', { input: 'start_date' });
  if (request.end < request.start) problems.add('end_date lies before start_date.', { input: 'end_date' });
  else if (request.end - request.start > MAX_RANGE_DAYS * DAY_MS) problems.add(`Ask for at most ${MAX_RANGE_DAYS} days at a time.`, { input: 'end_date' });
}

/** The first day the service can deliver a parcel handed in now: the transit time in its delivery days after the handover day. */
function earliestDelivery(service: ServiceRecord, now: { day: Day; hour: number }): Day {
  let handover = now.hour >= CUT_OFF_HOUR ? addDays(now.day, 1) : now.day;
  while (!WORKING_DAYS.has(weekday(handover))) handover = addDays(handover, 1);
  const delivers = (day: Day) => service.delivery_days.includes(nameOf(day) as ServiceRecord['delivery_days'][number]);
  let day = handover;
  for (let counted = 0; counted < service.transit_time.min;) {
    day = addDays(day, 1);
    if (delivers(day)) counted += 1;
  }
  while (!delivers(day)) day = addDays(day, 1);
  return day;
}

/** The default window of a day: three hours between 09:00 and 17:00, the same for the same address and day. */
function dayWindow(carrier: CarrierRecord, request: DeliveryDatesRequest, day: Day): [number, number] {
  const key = `${carrier.code}:${request.address.country_code}:${request.address.postal_code.replace(/\s+/g, '').toUpperCase()}:${request.address.street_number}:${day.year}-${day.month}-${day.day}`;
  const from = 9 + (createHash('sha256').update(key).digest()[0]! % 6);
  return [from, from + 3];
}

/**
 * The delivery windows of a carrier's service at an address between `start` and `end`, as the
 * sandbox carrier plans them on the sandbox clock: a parcel handed in today (before the cut-off,
 * on a working day) arrives after the service's minimum transit time, counted in its delivery
 * days, and on every delivery day after that. Each window lies wholly within the range; times
 * are local to the address. Morning and evening options have their fixed windows, Saturday
 * delivery only Saturdays.
 */
export function availableDeliveryDates(rules: Rules, request: DeliveryDatesRequest): DeliveryWindow[] {
  const problems = new Problems();
  const { carrier, service, optionCodes } = resolve(rules, request, problems);
  const zone = ZONES[request.address.country_code] ?? 'UTC';
  const now = localAt(zone, rules.clock.nowMs());
  checkRange(request, zonedMs(zone, now.day, 0), problems);
  problems.throwIfAny();
  // A service without delivery days never delivers (and the day search below would not end).
  if (service!.delivery_days.length === 0) return [];
  const option = optionCodes[0];
  const windows: DeliveryWindow[] = [];
  for (let day = earliestDelivery(service!, now); zonedMs(zone, day, 0) <= request.end; day = addDays(day, 1)) {
    if (!service!.delivery_days.includes(nameOf(day) as ServiceRecord['delivery_days'][number])) continue;
    if (option === 'delivery-window:saturday' && weekday(day) !== 6) continue;
    const fixed = option ? OPTION_WINDOWS[option] : undefined;
    const [fromHour, toHour] = fixed ?? dayWindow(carrier!, request, day);
    const from = zonedMs(zone, day, fromHour);
    const to = zonedMs(zone, day, toHour);
    if (from >= request.start && to <= request.end) windows.push({ date_from: isoInZone(zone, from), date_to: isoInZone(zone, to) });
  }
  return windows;
}
