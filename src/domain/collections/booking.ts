import type { CarrierRecord } from '../../model/carrier.js';
import type { ContractRecord } from '../../model/contract.js';
import type { ReadView } from '../../store/store.js';
import type { Field, Problem } from '../errors.js';
import { calendarOf, collectsIn, describeCalendar, slotHolding, utcText, type Slot } from '../../model/collection-calendar.js';

/** The field of the request each part of a booking came from, for errors. */
export interface BookingPlaces {
  contract: Field;
  country: Field;
  window: Field;
}

export interface Booking {
  contract: ContractRecord;
  countryCode: string;
  window: { from: number; to: number };
  /** The sandbox clock: slots whose bookings closed before it are not offered. */
  now: number;
}

function carrierOfContract(store: ReadView, contract: ContractRecord | undefined): CarrierRecord | undefined {
  return contract ? store.get('carriers', contract.carrier_id) : undefined;
}

/**
 * Why a carrier would not take a booking: it offers no collections, does not collect in the
 * country, the window lies in no slot of its calendar, or bookings for that slot have closed.
 * Empty when it would, with the slot that holds the window.
 */
export function bookingProblems(store: ReadView, booking: Booking, places: BookingPlaces): { problems: Problem[]; slot?: Slot } {
  const carrier = carrierOfContract(store, booking.contract);
  if (!carrier) return { problems: [{ detail: `The carrier of contract '${booking.contract.id}' does not exist.`, field: places.contract }] };
  const calendar = calendarOf(carrier);
  if (!calendar) {
    return {
      problems: [
        {
          detail: `${carrier.name} does not collect (its collections.offers_collections is false): use a contract of a carrier that does.`,
          field: places.contract,
        },
      ],
    };
  }
  const problems: Problem[] = [];
  if (!collectsIn(calendar, booking.countryCode)) {
    problems.push({
      detail: `${carrier.name} does not collect in ${booking.countryCode}; it collects in ${calendar.countries.join(', ')}.`,
      field: places.country,
    });
  }
  const { from, to } = booking.window;
  const slot = slotHolding(calendar, booking.window);
  if (!slot) {
    problems.push({
      detail:
        `${utcText(from)} to ${utcText(to)} lies in no collection slot of ${carrier.name} (${describeCalendar(calendar)}). ` +
        `GET /carriers/${carrier.id}/collection-time-slots lists the slots it offers.`,
      field: places.window,
    });
  } else if (slot.bookBefore <= booking.now) {
    problems.push({
      detail: `Bookings for ${carrier.name}'s slot ${utcText(slot.from)} to ${utcText(slot.to)} closed at ${utcText(slot.bookBefore)} (it is now ${utcText(booking.now)}).`,
      field: places.window,
    });
  }
  return { problems, slot: problems.length === 0 ? slot : undefined };
}
