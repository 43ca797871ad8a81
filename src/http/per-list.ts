import type { Endpoint } from './endpoint.js';

/**
 * `derive` worked out once per endpoint list. The list never changes once made (app.ts:
 * allEndpoints), so every app of the process shares what is derived from it: its routes, its
 * body-limit router and its 405 routes, which were made again for each app before.
 */
export function oncePerList<T>(derive: (endpoints: readonly Endpoint[]) => T): (endpoints: readonly Endpoint[]) => T {
  const made = new WeakMap<readonly Endpoint[], T>();
  return (endpoints) => {
    let value = made.get(endpoints);
    if (value === undefined) made.set(endpoints, (value = derive(endpoints)));
    return value;
  };
}
