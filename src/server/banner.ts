import { hashSecret } from '../auth/secrets.js';
import type { Config } from '../config.js';
import { knownClients, type DefaultClient } from '../fixtures/clients.js';
import { seededSecret } from '../auth/shared-secrets.js';
import type { StartPack } from '../fixtures/world.js';
import { scopes, seedScopes } from '../model/tenancy.js';
import type { Store } from '../store/store.js';

/** What a start of the server ended on: where it listens, its settings and its data. */
export interface Started {
  local: string;
  authUrl: string | undefined;
  config: Config;
  store: Store;
  fixtures: StartPack | undefined;
  /** The data was seeded by this start (memory, a new data file, `--reset`), not read from the data file. */
  seeded: boolean;
}

/** Whether the start pack has rows of its own to seed (a folder of named packs alone has none). */
const packSeeds = (fixtures: StartPack | undefined): fixtures is StartPack => fixtures !== undefined && (fixtures.only === true || !fixtures.packsOnly);

/**
 * The clients whose secrets are known (the base set's and the start pack's) that the data holds
 * with that very secret: a data file made from another pack, or changed since, may hold none of
 * them, and the banner must not offer credentials the token endpoint refuses. In shared mode each
 * is shown with the secret it takes there (auth/shared-secrets.ts), not the published one.
 */
function usableClients(store: Store, config: Config, fixtures: StartPack | undefined): DefaultClient[] {
  return knownClients(fixtures).flatMap((client) => {
    const row = store.get('clients', client.id);
    return row && row.secret_sha256 === hashSecret(client.secret) ? [{ ...client, secret: seededSecret(config, client), scopes: row.scopes }] : [];
  });
}

/** What the sandbox prints once it listens; the first line names where it really listens. */
export function banner({ local, authUrl, config, store, fixtures, seeded }: Started): string {
  const url = config.publicUrl ?? local;
  const controls = config.shared
    ? "  controls:    shared mode: /_sandbox/ needs the admin token (or a tenant's own token); random ids; no loopback webhooks"
    : config.adminToken
      ? "  controls:    /_sandbox/ needs the admin token (or a tenant's own token)"
      : '  controls:    /_sandbox/ works without a token (not from web pages of other origins); set SANDBOX_ADMIN_TOKEN when others can reach it';
  const applied = seeded || !packSeeds(fixtures) ? (config.fixturesOnly ? ' (alone)' : ' over the base set') : ' not seeded: the data file was there';
  // A full client's 19 scopes would not fit a line: it is said to hold them all.
  const held = (granted: readonly string[]) =>
    granted.length === scopes.length ? `every scope (${seedScopes.join(' ')} and production's finer ones)` : granted.join(' ');
  const clients = usableClients(store, config, fixtures).map((client) => `    ${client.id.padEnd(15)} ${client.secret.padEnd(15)} ${held(client.scopes)}`);
  return [
    `parcel-sandbox listening on ${local}`,
    ...(config.publicUrl ? [`  public url:  ${config.publicUrl}`] : []),
    `  data:        ${store.location}`,
    ...(config.fixtures !== undefined ? [`  fixtures:    ${config.fixtures}${applied}`] : []),
    `  token:       POST ${authUrl ?? url}/access-token`,
    `  openapi:     ${url}/openapi.json`,
    `  docs:        ${url}/docs`,
    controls,
    ...(clients.length > 0 ? [`  clients (client_id, client_secret, scopes):`, ...clients] : ['  clients:     none of the seeded clients is in the data file']),
    '',
  ].join('\n');
}

/**
 * One line for stderr when the data file was read as it was, so a start pack or a seed the start
 * was given did not shape it (they only shape a new data file, or `--reset`); `undefined` when
 * nothing given was left unused. A seed is named only when given and not the file's own.
 */
export function unappliedLine({ config, store, fixtures, seeded }: Started, given: ReadonlySet<keyof Config>): string | undefined {
  if (seeded) return undefined;
  const unused = [
    ...(packSeeds(fixtures) ? [`FIXTURES (--fixtures) ${config.fixtures}`] : []),
    ...(given.has('seed') && config.seed !== store.seed ? [`SEED (--seed) ${config.seed} (it holds seed ${store.seed})`] : []),
  ];
  if (unused.length === 0) return undefined;
  const them = unused.length > 1 ? 'them' : 'it';
  return `parcel-sandbox: the data file ${store.location} exists and is used as it is, so ${unused.join(' and ')} ${unused.length > 1 ? 'are' : 'is'} not applied; add --reset (RESET=true) to start from ${them}, replacing its data\n`;
}
