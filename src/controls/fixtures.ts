// The fixture controls: POST /_sandbox/fixtures loads a pack into a tenant, GET exports one, GET /_sandbox/fixtures/packs lists the named packs.
import { z } from 'zod';
import { appEndpoint } from '../http/app-context.js';
import { ApiError } from '../jsonapi/errors.js';
import { plainJson } from '../http/respond.js';
import type { Services } from '../http/services.js';
import { apiTenants, tenantEntry, tenantSettingId, type TenantEntry } from '../domain/tenant-lifetime.js';
import { putSetting } from '../store/settings.js';
import { errorResponse } from './responses.js';
import { namedPackFolders, packReference, packSource, PACK_BODY_LIMIT, refusingPacks } from './pack-source.js';
import { tenantOf } from './tenant-reset.js';

const json = ['application/json'] as const;

const loadRequest = z
  .strictObject({
    pack: packReference,
    client_id: z
      .string()
      .min(1)
      .optional()
      .describe("The tenant to load into, by one of its clients: with the admin token, this or `tenant`; with a tenant's token, its own."),
    tenant: z
      .string()
      .min(1)
      .optional()
      .describe('The tenant to load into, by its id (the organization id POST /_sandbox/tenants answered, as DELETE /_sandbox/tenants/{tenant} names it).'),
  })
  .meta({ id: 'SandboxFixturesLoadRequest' });

const loaded = z
  .object({
    organization_id: z.string(),
    loaded: z.record(z.string(), z.number().int()).describe('Rows made, by table'),
    keys: z.record(z.string(), z.record(z.string(), z.string())).describe('The id each key of the pack became, by section'),
  })
  .meta({ id: 'SandboxFixturesLoaded' });

const packList = z.object({ data: z.array(z.object({ name: z.string(), description: z.string().optional() })) }).meta({ id: 'SandboxFixturePackList' });

const exported = z.record(z.string(), z.unknown()).describe('A pack (fixtures/schema/pack.schema.json).').meta({ id: 'SandboxFixturePack' });

/** The organization of the tenant an organization belongs to, with its entry: its own, or its group's. */
function groupOf(services: Services, organizationId: string): { mainId: string; entry: TenantEntry } | undefined {
  const entry = tenantEntry(services.store, organizationId);
  if (!entry) return undefined;
  const mainId = entry.group ?? organizationId;
  const main = mainId === organizationId ? entry : tenantEntry(services.store, mainId);
  return main && { mainId, entry: main };
}

/** The organization of a tenant made through the controls, by id; 404 for another id (and, with a tenant's token, for any but its own). */
function tenantById(services: Services, id: string, within?: string): string {
  if (groupOf(services, id) && (within === undefined || within === id)) return id;
  throw ApiError.of('resourceNotFound', `No tenant '${id}' exists${within !== undefined ? ' that your token may load into' : ''}.`, {
    source: { pointer: '/tenant' },
  });
}

/** Loads a pack into a tenant's organization (by client id, within the token's organization when a tenant calls). */
async function loadPack(services: Services, body: z.output<typeof loadRequest>, principal?: { clientId: string; organizationId: string }) {
  if (body.tenant !== undefined && body.client_id !== undefined) {
    throw ApiError.unprocessable('Name the tenant to load into once: by `client_id` or by `tenant`, not both.', '/tenant');
  }
  const clientId = body.client_id ?? principal?.clientId;
  if (body.tenant === undefined && clientId === undefined) {
    throw ApiError.unprocessable(
      'With the admin token, name the tenant to load into: {"pack": ..., "tenant": ...} or {"pack": ..., "client_id": ...}.',
      '/tenant',
    );
  }
  // Looked up again in the transaction: the tenant may go (deleted, expired, a sandbox reset) while the pack is read.
  const namedTenant = () =>
    body.tenant !== undefined
      ? tenantById(services, body.tenant, principal?.organizationId)
      : tenantOf(services, clientId!, principal?.organizationId).organizationId;
  const organizationId = namedTenant();
  if (!groupOf(services, organizationId)) {
    // Named by the body's client_id, or else by the token.
    throw ApiError.of(
      'unprocessable',
      `Organization '${organizationId}' is one of the seeded organizations, not a tenant created with POST /_sandbox/tenants: give the sandbox packs at start (--fixtures).`,
      { source: body.client_id !== undefined ? { pointer: '/client_id' } : { header: 'Authorization' } },
    );
  }
  const loading = await import('./tenant-pack.js');
  const source = await packSource(services, body.pack);
  const { store, clock, rules } = services;
  return store.transact((tx) => {
    namedTenant();
    const group = groupOf(services, organizationId)!;
    const { pack, view } = loading.checkTenantPack(services, tx, source.files, 'tenant-add', group.entry.keys ?? {}, source.name);
    const organization = tx.get('organizations', organizationId)!;
    const named = pack.rows.organizations?.[0];
    const key = named?.key ?? view.keyOf('organizations', organizationId) ?? `organization:${organizationId}`;
    view.add('organizations', key, organizationId);
    let organizationChanges = {};
    if (named) {
      const broker = view.resolve('brokers', named.broker);
      if (broker?.id !== organization.broker_id) {
        const { FixtureError } = loading;
        throw new FixtureError([
          {
            file: pack.origins.get(named)?.file ?? 'pack',
            pointer: `${pack.origins.get(named)?.pointer ?? ''}/broker`,
            detail: "The tenant's organization stays under its broker.",
          },
        ]);
      }
      const { key: _key, broker: _broker, country_code: _country, ...changes } = named;
      tx.update('organizations', organizationId, changes);
      organizationChanges = changes;
    }
    const rows = loading.tenantRows({ ...pack, rows: { ...pack.rows, organizations: [] } }, key);
    const now = clock.now();
    const built = loading.buildTenantRows(tx, view, rows, now, organizationId);
    const hooks = (built.tables.hooks ?? []).length;
    if (hooks > 0) loading.assertRoom(rules, tx, organizationId, 'hooks', hooks);
    const inserted = loading.insertTenantRows(tx, built.tables, group.mainId);
    for (const schedule of inserted.collectionSchedules ?? []) loading.topUp(tx, rules.forTenant(organizationId), schedule as never, now);
    const keys = loading.mergeKeys(built.keys, { organizations: { [key]: organizationId } });
    putSetting(tx, tenantSettingId(group.mainId), { ...tenantEntry(tx, group.mainId)!, keys: loading.mergeKeys(group.entry.keys, keys) });
    const target = tenantEntry(tx, organizationId)!;
    const restored = loading.rowsOf(inserted, organizationId);
    // The entry as stored is frozen: the rows of earlier packs are copied, this pack's added to the copy.
    const rowsToRestore: NonNullable<TenantEntry['rows']> = { ...target.rows };
    for (const [table, list] of Object.entries(restored)) rowsToRestore[table] = [...(rowsToRestore[table] ?? []), ...list];
    const shops = [...target.shops, ...((inserted.shops ?? []) as TenantEntry['shops'])];
    // What the pack set on the organization is part of what a tenant reset puts back.
    const seeded = named && target.organization ? { organization: { ...target.organization, ...organizationChanges } } : {};
    putSetting(tx, tenantSettingId(organizationId), { ...target, shops, rows: rowsToRestore, ...seeded });
    const counts = Object.fromEntries(Object.entries(inserted).map(([table, list]) => [table.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), list.length]));
    return { organization_id: organizationId, loaded: counts, keys: built.keys as Record<string, Record<string, string>> };
  });
}

/** The pack a tenant (its group), or with the admin token the tenant of `client_id` or the whole sandbox, exports to. */
async function exportFixtures(services: Services, clientId: string | undefined, principal?: { organizationId: string }) {
  const { exportPack } = await import('../fixtures/export.js');
  const { TenantView, worldKeys } = await import('./tenant-world.js');
  const { store } = services;
  const organizationId =
    clientId !== undefined ? tenantOf(services, clientId, principal?.organizationId, { parameter: 'client_id' }).organizationId : principal?.organizationId;
  if (organizationId !== undefined) {
    const group = groupOf(services, organizationId);
    const mainId = group?.mainId ?? organizationId;
    const members = apiTenants(store)
      .filter(({ entry }) => entry.group === mainId)
      .map((tenant) => tenant.organizationId);
    const view = new TenantView(services, store, group?.entry.keys ?? {});
    const scope = {
      organizations: [mainId, ...members],
      brokers: group?.entry.brokers ?? [],
      catalogue: 'owned' as const,
      accounts: false,
      orderNumbers: false,
    };
    return exportPack(store, scope, (section, id) => view.keyOf(section, id));
  }
  // The admin's export: the whole sandbox, tenants as plain organizations; keys as seeded or loaded.
  const known = new Map<string, string>();
  const remember = (keys: Record<string, Record<string, string> | undefined> | undefined) => {
    for (const [section, map] of Object.entries(keys ?? {})) for (const [key, id] of Object.entries(map ?? {})) known.set(`${section}\u0000${id}`, key);
  };
  for (const { entry } of apiTenants(store)) remember(entry.keys);
  remember(worldKeys(services));
  const scope = {
    organizations: store.all('organizations').map((row) => row.id),
    brokers: store.all('brokers').map((row) => row.id),
    catalogue: 'all' as const,
    accounts: true,
    orderNumbers: true,
  };
  return exportPack(store, scope, (section, id) => known.get(`${section}\u0000${id}`));
}

export const fixtureEndpoints = [
  appEndpoint({
    method: 'post',
    path: '/_sandbox/fixtures',
    operationId: 'loadSandboxFixtures',
    summary: "Load a pack into a tenant's organization",
    description:
      "Loads a pack (inline, or the name of a pack under the fixtures folder) into the organization of a tenant created with POST /_sandbox/tenants: with a tenant's access token its own, with the admin token the one of `client_id`. " +
      "Rows that leave their organization out are the tenant's; a pack may have one `organizations` row, which names the tenant's organization (its attributes are applied). " +
      "References name the pack's own rows, the sandbox's catalogue and broker contracts by their seeded keys, and rows earlier packs gave the tenant. " +
      'The pack is checked as a whole first (its JSON Schema, then keys, references, weight ranges, owners, country codes); a broken pack is refused with 422, one error per problem naming the file and JSON pointer (`meta.file`, `meta.pointer`), and nothing is loaded. ' +
      'Loading happens in one transaction; other tenants are untouched. Keys already in the tenant (a pack loaded twice) are refused. An inline pack is at most 1 MiB; name larger ones.',
    tag: 'Sandbox',
    auth: 'control',
    body: loadRequest,
    maxBodyBytes: PACK_BODY_LIMIT,
    produces: json,
    responses: {
      200: { description: 'What was made, and the id of each key.', schema: loaded, contentTypes: json },
      400: errorResponse('The body is not JSON or violates SandboxFixturesLoadRequest (10003).'),
      404: errorResponse(
        "No client with that client_id, or no tenant with that id (in the organization of the token, with a tenant's token) (10002, pointer /client_id or /tenant).",
      ),
      422: errorResponse(
        'The pack is broken: one error per problem, `meta.file` and `meta.pointer` naming where (10008); or the organization is a seeded one.',
      ),
    },
    handler: async (ctx, { body }) => plainJson(await refusingPacks(() => loadPack(ctx.services, body, ctx.principal))),
  }),
  appEndpoint({
    method: 'get',
    path: '/_sandbox/fixtures',
    operationId: 'exportSandboxFixtures',
    summary: 'Export data as a pack',
    description:
      'The data as a pack that loads back to the same state (with new ids): with a tenant\'s access token, its tenant (its organizations, shops, contracts with their rates and coverages, hooks, collection schedules, returns configuration, demo orders, and its own carriers, services, zones and brokers), referring to the sandbox\'s catalogue by key; POST /_sandbox/tenants {"pack": ...} makes a tenant of it. ' +
      'With the admin token, the tenant of `client_id`, or without it the whole sandbox (catalogue, brokers, every organization with its users and clients, tenants as plain organizations), which `--fixtures-only` starts a sandbox on. ' +
      'Left out: shipments and what is made with them, returns, collections, manifests, files, logos, the address book and contract credentials.',
    tag: 'Sandbox',
    auth: 'control',
    query: z.object({ client_id: z.string().min(1).optional().describe("Export only this client's tenant.") }),
    produces: json,
    responses: {
      200: { description: 'The pack.', schema: exported, contentTypes: json },
      404: errorResponse("No client with that client_id (in the organization of the token, with a tenant's token) (10002)."),
    },
    handler: async (ctx, { query }) => plainJson(await exportFixtures(ctx.services, query.client_id, ctx.principal)),
  }),
  appEndpoint({
    method: 'get',
    path: '/_sandbox/fixtures/packs',
    operationId: 'listSandboxFixturePacks',
    summary: 'List the packs tenants can be made from by name',
    description: "The packs under the `packs/` folder of --fixtures and the package's fixtures/packs/, by name, with their description.",
    tag: 'Sandbox',
    auth: 'control',
    produces: json,
    responses: { 200: { description: 'The named packs.', schema: packList, contentTypes: json } },
    handler: async (ctx) => {
      const { packNames, namedPackPath } = await import('../fixtures/named-packs.js');
      const { readPack } = await import('../fixtures/read-pack.js');
      const { describeJsonSyntax } = await import('./pack-source.js');
      const folders = namedPackFolders(ctx.services);
      const data = [];
      for (const name of packNames(folders)) {
        const { files } = await readPack(namedPackPath(name, folders)!, name, describeJsonSyntax);
        const description = files.map((file) => (file.data as { description?: unknown }).description).find((text) => typeof text === 'string') as
          string | undefined;
        data.push({ name, ...(description !== undefined ? { description } : {}) });
      }
      return plainJson({ data });
    },
  }),
];
