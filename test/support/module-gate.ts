/**
 * A gate for a module's first load, for a `vi.mock` factory to wait at (in a file of the isolated
 * project: the mock must see the first load): `arrived()` from the factory, then `await gate`;
 * the test awaits `reached`, acts while the load waits, and calls `release()`. No imports, so
 * `vi.hoisted` can load it before the mocks are set up.
 */
export function moduleGate() {
  let open = () => {};
  let arrive = () => {};
  const gate = new Promise<void>((resolve) => (open = resolve));
  const reached = new Promise<void>((resolve) => (arrive = resolve));
  return { gate, reached, arrived: () => arrive(), release: () => open() };
}
