/*
 * Production's address schema lets these members be `null`, and a client that builds its
 * addresses from a database sends `"company": null` for a shop without one. Here `null` in them
 * is taken as the member left out, once, at the edge, for every address a body holds below its
 * attributes (a shop's, an organization's billing address, a shipment's, a collection's...), so
 * the schemas and the rows keep one shape. Where the attributes themselves are an address
 * (`/addresses`), a create takes `null` as none too, and an update keeps its own meaning for it
 * (remove the member).
 */
export const NULLABLE_ADDRESS_MEMBERS = ['street_2', 'street_number', 'street_number_suffix', 'postal_code', 'state_code', 'company', 'email', 'phone_number'];

/** The members every address has: an object holding all three is read as an address. */
export const ADDRESS_MEMBERS = ['street_1', 'city', 'country_code'];

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** An object shaped as an address: the members every address requires are there. */
const isAddress = (value: Record<string, unknown>) => ADDRESS_MEMBERS.every((member) => member in value);

/** `value` without the null members of the addresses in it (a copy where something goes; the same value elsewhere). */
function withoutNulls(value: unknown, depth: number): unknown {
  // Bodies are scanned for nesting before they are parsed (64 levels at most); this stays inside that.
  if (depth > 64) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, index) => {
      const next = withoutNulls(item, depth + 1);
      if (next !== item) (copy ??= [...value])[index] = next;
    });
    return copy ?? value;
  }
  if (!isRecord(value)) return value;
  let copy: Record<string, unknown> | undefined;
  const address = isAddress(value);
  for (const [key, member] of Object.entries(value)) {
    if (address && member === null && NULLABLE_ADDRESS_MEMBERS.includes(key)) {
      copy ??= { ...value };
      delete copy[key];
      continue;
    }
    const next = withoutNulls(member, depth + 1);
    if (next !== member) (copy ??= { ...value })[key] = next;
  }
  return copy ?? value;
}

/**
 * The body with `null` dropped from the nullable members of its addresses: of every address
 * below `data.attributes` in a JSON:API document (and of the attributes themselves when they are
 * an address and the request creates one, where `null` can only mean "none"), of every address
 * anywhere in another body. The body as sent stays what the request log and idempotency
 * fingerprints see.
 */
export function dropAddressNulls(body: unknown, creates: boolean): unknown {
  if (!isRecord(body) || !isRecord(body.data) || !isRecord(body.data.attributes)) return withoutNulls(body, 0);
  if (creates && isAddress(body.data.attributes)) return withoutNulls(body, 0);
  const attributes = body.data.attributes;
  let changed: Record<string, unknown> | undefined;
  for (const [key, member] of Object.entries(attributes)) {
    const next = withoutNulls(member, 3);
    if (next !== member) (changed ??= { ...attributes })[key] = next;
  }
  return changed ? { ...body, data: { ...body.data, attributes: changed } } : body;
}
