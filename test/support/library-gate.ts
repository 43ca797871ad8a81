import { importedLibraries, type Libraries } from '../../src/domain/libraries.js';

/**
 * Libraries whose first load of `name` waits at a gate, for a sandbox made with them
 * (`testSandbox({ libraries })`): the test awaits `reached` (a request is loading), acts while the
 * load waits, as other requests run while a server first loads a library, and calls `release()`.
 * Every load of `name` until then waits with it, as they wait for a module that is still loading;
 * later loads, and loads of the other libraries, go through at once.
 */
export function gatedLibraries(name: keyof Libraries): { libraries: Libraries; reached: Promise<void>; release(): void } {
  let open = () => {};
  let arrive = () => {};
  const gate = new Promise<void>((resolve) => (open = resolve));
  const reached = new Promise<void>((resolve) => (arrive = resolve));
  let released = false;
  const held = async <T>(load: () => Promise<T>): Promise<T> => {
    if (!released) {
      arrive();
      await gate;
    }
    return load();
  };
  const libraries: Libraries = {
    labels: () => (name === 'labels' ? held(importedLibraries.labels) : importedLibraries.labels()),
    imageSniffers: () => (name === 'imageSniffers' ? held(importedLibraries.imageSniffers) : importedLibraries.imageSniffers()),
  };
  return {
    libraries,
    reached,
    release: () => {
      released = true;
      open();
    },
  };
}
