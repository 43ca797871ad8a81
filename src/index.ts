/**
 * parcel-sandbox as a library: `createSandbox()` runs the whole sandbox in-process for your own
 * tests, without a port. `createApp`/`createServices` build the Hono app on your own store,
 * clock and keys for advanced use. Nothing here reads the environment; the only files read are
 * the package's own fixtures/ and a pack that `config.fixtures` names.
 */
export { createSandbox, DEFAULT_SANDBOX_URL, type Sandbox, type SandboxOptions } from './server/library.js';
export { createApp, createServices } from './app.js';
export { createClock, fixedClock, type Clock } from './clock.js';
export { parseConfig, ConfigError, settings, type Config, type Setting } from './config.js';
export { generateKeys, type Keys } from './auth/keys.js';
export { openStore, type Store } from './store/store.js';
export { memoryPersistence, filePersistence, DataFileError, DataWriteError, type Persistence } from './store/persistence.js';
export type { AppDeps, Logger, Services } from './http/services.js';
export { generateState } from './fixtures/generate.js';
export { defaultClients } from './fixtures/tenancy.js';
export { FixtureError, type FixtureProblem } from './fixtures/problems.js';
export { VERSION } from './version.js';

export type { Address, Identifier, Price, TaxIdentificationNumber } from './model/common.js';
export type { CarrierStatus, Customs, Item, PhysicalProperties, ShipmentAttributes } from './model/shipment.js';

/** A JSON:API resource object as the sandbox sends it. */
export interface JsonApiResource<Attributes = Record<string, any>> {
  type: string;
  id: string;
  attributes: Attributes;
  relationships?: Record<string, { data: { type: string; id: string } | { type: string; id: string }[] | null; links?: Record<string, string> }>;
  links?: Record<string, string>;
  meta?: Record<string, unknown>;
}

/** One entry of a JSON:API `errors` array. */
export interface JsonApiError {
  status: string;
  code: string;
  title: string;
  detail: string;
  source?: { pointer?: string; parameter?: string; header?: string };
  meta?: Record<string, unknown>;
}

/** A JSON:API document: one resource or a list, with `included`, `meta` and `links`, or `errors`. */
export interface JsonApiDocument<Data = JsonApiResource | JsonApiResource[]> {
  data?: Data;
  included?: JsonApiResource[];
  meta?: Record<string, any>;
  links?: Record<string, string | null>;
  errors?: JsonApiError[];
}
