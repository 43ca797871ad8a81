import { z } from 'zod';
import { availableDeliveryDates, MAX_RANGE_DAYS } from '../../domain/delivery-dates.js';
import { endpoint } from '../../http/endpoint.js';
import { jsonApi } from '../../http/respond.js';
import { errorDocument } from '../../jsonapi/schemas.js';
import { countryCode } from '../../model/common.js';

/** Production's date-time pattern: seconds, up to six decimals, and `Z` or an offset. */
const DATE_TIME = /^\d{4}-(?:0[1-9]|1[0-2])-(?:[0-2][0-9]|3[0-1])T(?:[0-1][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\.\d{1,6})?(Z|[+-]\d{2}:?\d{2})$/;

/** Unix milliseconds of a date-time of that pattern, or NaN for a day the month does not have. */
function parseDateTime(text: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?(Z|[+-]\d{2}:?\d{2})$/.exec(text);
  if (!match) return NaN;
  const [, year, month, day, time, fraction, zone] = match;
  if (new Date(Date.UTC(Number(year), Number(month) - 1, Number(day))).getUTCDate() !== Number(day)) return NaN;
  const offset = zone === 'Z' ? 'Z' : zone!.replace(/^([+-]\d{2}):?(\d{2})$/, '$1:$2');
  return Date.parse(`${year}-${month}-${day}T${time}.${(fraction ?? '').padEnd(3, '0').slice(0, 3)}${offset}`);
}

const dateTime = (what: string) =>
  z
    .string()
    .regex(DATE_TIME, { error: 'must be a date-time such as 2026-01-13T00:00:00+01:00', abort: true })
    .refine((text) => !Number.isNaN(parseDateTime(text)), 'is not a day of the calendar')
    .describe(what);

const request = z
  .strictObject({
    data: z.object({
      carrier_code: z.string().min(1).max(255).describe('The carrier, by code (GET /carriers); it must offer delivery dates.'),
      service_code: z.string().min(1).max(255).describe("The carrier's service, by code; it must deliver to the address."),
      service_option_codes: z
        .array(z.string().regex(/^delivery-window:.*$/, 'must be a delivery-window option code'))
        .max(10)
        .optional()
        .describe('At most one delivery-window option the service offers: morning and evening have their own windows, saturday only Saturdays.'),
      address: z.object({ country_code: countryCode, postal_code: z.string().min(1).max(20), street_number: z.number().int() }),
      start_date: dateTime('Start of the range; not before today on the sandbox clock.'),
      end_date: dateTime(`End of the range; at most ${MAX_RANGE_DAYS} days after the start.`),
    }),
  })
  .meta({ id: 'AvailableDeliveryDatesRequest' });

const response = z.strictObject({ data: z.array(z.object({ date_from: z.string(), date_to: z.string() })) }).meta({ id: 'AvailableDeliveryDates' });

export const deliveryDateEndpoints = [
  endpoint({
    method: 'post',
    path: '/shipping/v2/available-delivery-dates',
    operationId: 'getAvailableDeliveryDates',
    summary: 'Delivery windows of a service at an address',
    description:
      `The windows in which the carrier's service could deliver at the address between start_date and end_date (at most ${MAX_RANGE_DAYS} days), planned on the sandbox clock: a parcel handed in today (before 17:00 local time, on a working day, else the next working day) arrives after the service's minimum transit_time, counted in its delivery_days, and on each delivery day after that. ` +
      'Windows lie wholly within the range, in the local time of the address with its offset: a three-hour window between 09:00 and 17:00 that follows from the address and the day, 08:00-12:00 with delivery-window:morning, 18:00-22:00 with delivery-window:evening, Saturdays only with delivery-window:saturday. ' +
      'Carriers whose delivery_dates.can_get_delivery_dates is false, unknown codes, a start before today and an end before the start are 422 with a pointer.',
    tag: 'Delivery dates',
    auth: { anyOf: ['shipments.manage'] },
    body: request,
    responses: {
      200: { description: 'The windows, earliest first (empty when none fits the range).', schema: response },
      422: { description: 'A code, option or range that does not fit (10008); each error points at its member.', schema: errorDocument },
    },
    handler: (ctx, { body }) => {
      const { data } = body;
      const windows = availableDeliveryDates(ctx.rules, {
        carrierCode: data.carrier_code,
        serviceCode: data.service_code,
        optionCodes: data.service_option_codes ?? [],
        address: data.address,
        start: parseDateTime(data.start_date),
        end: parseDateTime(data.end_date),
      });
      return jsonApi({ data: windows });
    },
  }),
];
