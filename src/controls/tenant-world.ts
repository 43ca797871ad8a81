// What a pack loaded into a tenant may refer to: the sandbox's catalogue and broker contracts by their seeded keys, and the tenant's own keys.
import type { ContractRecord } from '../model/contract.js';
import type { Services } from '../http/services.js';
import type { Row, TableName } from '../store/tables.js';
import type { ReadView } from '../store/store.js';
import { getSetting, WORLD_KEYS } from '../store/settings.js';
import { baseSet } from '../fixtures/base-set.js';
import type { Outside } from '../fixtures/check-pack.js';
import { seedWorld } from '../fixtures/generate.js';
import { packKeyIndex } from '../fixtures/named-packs.js';
import type { SectionName, SectionRow } from '../fixtures/pack-schema.js';
import { FIXTURE_EPOCH } from '../fixtures/people.js';
import type { Made } from '../fixtures/registry.js';
import { namedPackFolders } from './pack-source.js';

export type KeyMaps = Partial<Record<SectionName, Record<string, string>>>;

/** The table of each section that makes rows. */
const tableOf: Partial<Record<SectionName, TableName>> = {
  carriers: 'carriers',
  regions: 'regions',
  zones: 'zones',
  services: 'services',
  service_options: 'serviceOptions',
  statuses: 'statuses',
  brokers: 'brokers',
  contract_templates: 'contractTemplates',
  organizations: 'organizations',
  users: 'users',
  clients: 'clients',
  shops: 'shops',
  contracts: 'contracts',
  return_questions: 'returnQuestions',
  return_reasons: 'returnReasons',
  demo_orders: 'demoOrders',
};

const worlds = new WeakMap<Services, KeyMaps>();

/**
 * The id each key of the seeded world (the base set and the start pack) became, for the seed of
 * the data. Data a start pack shaped keeps its keys (the pack of this start may be another one, or
 * none: a start on an existing data file does not apply it); otherwise the base set is seeded
 * again once per process, as a tenant reset does. Rows the data no longer holds (or that a data
 * file of another seed has under other ids) are not found by it.
 */
export function worldKeys(services: Services): KeyMaps {
  const kept = getSetting<KeyMaps>(services.store, WORLD_KEYS);
  if (kept) return kept;
  let keys = worlds.get(services);
  if (!keys) worlds.set(services, (keys = seedWorld(services.store.seed, FIXTURE_EPOCH, services.fixtures).keys));
  return keys;
}

/** Sections of the world a tenant's pack may refer to: what every tenant shares. */
const shared = new Set<SectionName>(['carriers', 'regions', 'zones', 'services', 'service_options', 'statuses', 'brokers', 'contract_templates', 'contracts']);

/** Whether a row of the world is one every tenant may use: catalogue rows of no tenant, broker contracts. */
function isShared(section: SectionName, row: Record<string, unknown>): boolean {
  if (section === 'contracts') return (row as unknown as ContractRecord).owner.type === 'brokers';
  return row.organization_id === undefined;
}

/** The products demo orders may name: the base set's and the start pack's. */
function worldProducts(services: Services): Map<string, SectionRow<'products'>> {
  const rows = [...(services.fixtures?.only ? [] : (baseSet().rows.products ?? [])), ...(services.fixtures?.rows.products ?? [])];
  return new Map(rows.map((row) => [row.sku, row]));
}

/** How keys of a tenant's view resolve: its own (from earlier packs and this load), then the world's shared rows. */
export class TenantView {
  private readonly world: KeyMaps;
  private readonly products: Map<string, SectionRow<'products'>>;
  private readonly reverse = new Map<string, string>();

  constructor(
    private readonly services: Services,
    private readonly store: ReadView,
    /** The tenant's own keys, by section. */
    readonly own: KeyMaps,
  ) {
    this.world = worldKeys(services);
    this.products = worldProducts(services);
    for (const maps of [this.world, own]) {
      for (const [section, keys] of Object.entries(maps)) for (const [key, id] of Object.entries(keys ?? {})) this.reverse.set(`${section}\u0000${id}`, key);
    }
  }

  /** A random id as a public page's (`IdSource.publicId`), drawn beside the store's counter: no other row's id moves for it. */
  publicId(): string {
    return this.services.store.ids.publicId();
  }

  /** The row a key names in this view, or `undefined`. */
  resolve(section: SectionName, key: string): Made | undefined {
    if (section === 'products') {
      const product = this.products.get(key);
      return product && { id: key, record: product };
    }
    const table = tableOf[section];
    if (!table) return undefined;
    const ownId = this.own[section]?.[key];
    const ownRow = ownId === undefined ? undefined : this.store.get(table, ownId);
    if (ownRow) return { id: ownRow.id, record: ownRow as unknown as Record<string, unknown> };
    const worldId = shared.has(section) ? this.world[section]?.[key] : undefined;
    const worldRow = worldId === undefined ? undefined : (this.store.get(table, worldId) as unknown as Record<string, unknown> | undefined);
    return worldRow && isShared(section, worldRow) ? { id: worldId!, record: worldRow } : undefined;
  }

  /** The products random picks come from when a pack has none of its own. */
  worldProducts(): SectionRow<'products'>[] {
    return [...this.products.values()];
  }

  /** The key a row of the world or of the tenant has, by id. */
  keyOf(section: SectionName, id: string): string | undefined {
    return this.reverse.get(`${section}\u0000${id}`);
  }

  /** Adds keys this view resolves (the tenant's organization, under a key of the pack). */
  add(section: SectionName, key: string, id: string): void {
    (this.own[section] ??= {})[key] = id;
    this.reverse.set(`${section}\u0000${id}`, key);
  }

  row<T extends TableName>(table: T, id: string): Row<T> | undefined {
    return this.store.get(table, id);
  }

  /** What the pack checker may ask of this view. */
  outside(packName?: string): Outside {
    const elsewhere = packKeyIndex(namedPackFolders(this.services), packName);
    const rates = (contract: string, service: string) => {
      const [c, s] = [this.resolve('contracts', contract)?.id, this.resolve('services', service)?.id];
      return c === undefined || s === undefined ? [] : this.store.find('serviceRates', 'contract_id', c).filter((rate) => rate.service_id === s);
    };
    return {
      has: (section, key) => this.resolve(section, key) !== undefined,
      taken: (section, key) =>
        section === 'demo_orders'
          ? this.store.get('demoOrders', key) !== undefined
          : // The seeded organizations' own rows (their shops, reasons ...) are no tenant's: a tenant may use their keys for rows of its own.
            this.own[section]?.[key] !== undefined || (shared.has(section) && this.resolve(section, key) !== undefined),
      shared: (section, key) => {
        const ownId = this.own[section]?.[key];
        const table = tableOf[section];
        if (ownId !== undefined && table && this.store.get(table, ownId)) return false;
        return this.resolve(section, key) !== undefined;
      },
      row: (section, key) => {
        const found = this.resolve(section, key)?.record;
        if (!found) return undefined;
        if (section === 'contracts') return { carrier: this.keyOf('carriers', found.carrier_id as string), currency: found.currency };
        if (section === 'services') return { carrier: this.keyOf('carriers', found.carrier_id as string), delivery_method: found.delivery_method };
        if (section === 'organizations') return { broker: this.keyOf('brokers', found.broker_id as string) };
        if (section === 'service_options') return { code: found.code, category: found.category, values_format: found.values_format };
        return undefined;
      },
      rates,
      // A service option's key is its code.
      rateOptions: (contract, service) =>
        rates(contract, service).flatMap((rate) =>
          rate.service_options.flatMap((offered) => this.store.get('serviceOptions', offered.service_option_id)?.code ?? []),
        ),
      elsewhere,
    };
  }
}
