/** Encodes a query component but leaves brackets and commas readable, as the API's own links do. */
function encode(component: string): string {
  return encodeURIComponent(component).replace(/%5B/gi, '[').replace(/%5D/gi, ']').replace(/%2C/gi, ',');
}

/** Serializes query entries in the given order. */
export function formatQuery(entries: Iterable<readonly [string, string]>): string {
  const parts: string[] = [];
  for (const [key, value] of entries) parts.push(`${encode(key)}=${encode(value)}`);
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}
