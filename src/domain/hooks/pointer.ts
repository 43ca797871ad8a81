/**
 * JSON Pointers (RFC 6901) into a resource document, written with or without the leading `/`,
 * as hook predicates and values are in the wild.
 */

/** The reference tokens of a pointer: `attributes/tags` and `/attributes/tags` give the same. */
export function tokens(pointer: string): string[] {
  const body = pointer.startsWith('/') ? pointer.slice(1) : pointer;
  if (body === '') return [];
  return body.split('/').map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * The value at a pointer, or `undefined` when any step is missing. A list's members are its
 * indexes only: `length` is no member (a list has it as a property, RFC 6901 does not).
 */
export function valueAt(document: unknown, pointer: string): unknown {
  let current: unknown = document;
  for (const token of tokens(pointer)) {
    if (current === null || typeof current !== 'object') return undefined;
    if (Array.isArray(current) && !/^(0|[1-9]\d*)$/.test(token)) return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, token)) return undefined;
    current = (current as Record<string, unknown>)[token];
  }
  return current;
}

/** Whether a token steps into a list: an index or `-` (append). */
const isIndex = (token: string): boolean => token === '-' || /^(0|[1-9]\d*)$/.test(token);

/**
 * Sets the value at a pointer in a plain-object document, creating what is missing on the way: a
 * list where the next step is an index or `-` (`/attributes/tags/-` on a shipment without tags
 * makes `tags` a list), an object otherwise; array steps must name an existing index or `-`
 * (append). Keys that could reach a prototype are refused. Returns why the value cannot be set
 * (the document is then left as it was up to that step), or `undefined` once it is set.
 */
export function setAt(document: Record<string, unknown>, pointer: string, value: unknown): string | undefined {
  const path = tokens(pointer);
  if (path.length === 0) return 'A pointer must name a member, not the whole resource.';
  let current: Record<string, unknown> | unknown[] = document;
  for (let i = 0; i < path.length; i++) {
    const token = path[i]!;
    if (token === '__proto__' || token === 'constructor' || token === 'prototype') return `'${token}' cannot be set.`;
    const last = i === path.length - 1;
    const container = () => (last || !isIndex(path[i + 1]!) ? {} : []);
    if (Array.isArray(current)) {
      const index = token === '-' ? current.length : isIndex(token) ? Number(token) : -1;
      if (index < 0 || index > current.length) {
        const list = `/${path.slice(0, i).join('/')}`;
        return `'${token}' is no member of the list at '${list}', which has ${current.length}: name one of them, or '-' to add one.`;
      }
      if (last) current[index] = value;
      else current = (current[index] ??= container()) as Record<string, unknown> | unknown[];
      continue;
    }
    if (last) current[token] = value;
    else {
      const next = current[token];
      current = (next && typeof next === 'object' ? next : (current[token] = container())) as Record<string, unknown> | unknown[];
    }
  }
  return undefined;
}

/** Whether a value counts as "already set": anything but missing, null, an empty string or an empty list. */
export function isSet(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return false;
  return !(Array.isArray(value) && value.length === 0);
}
