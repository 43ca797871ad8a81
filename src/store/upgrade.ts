import { contractShareId, type ContractRecord, type ContractShareRecord } from '../model/contract.js';
import { scopes, seedScopes, type ClientRecord } from '../model/tenancy.js';
import type { StateData } from './tables.js';

/** A contract row as files written before `contractShares` kept it: the organizations it was shared with, on the row. */
type ListedContract = ContractRecord & { shared_with?: string[] };

/**
 * Shares of broker contracts, from a file written before they had a table of their own: each
 * contract's `shared_with` list becomes a row per organization, and a broker contract without a
 * list (files older still) is shared with every organization of its broker, as it was then.
 */
function upgradeShares(data: StateData): StateData {
  const contracts = (data.tables.contracts ?? []) as ListedContract[];
  if (data.tables.contractShares !== undefined || !contracts.some((row) => row.owner.type === 'brokers' || row.shared_with !== undefined)) return data;
  const organizations = data.tables.organizations ?? [];
  const shares: ContractShareRecord[] = [];
  const stripped = contracts.map(({ shared_with: list, ...contract }) => {
    if (contract.owner.type !== 'brokers') return contract;
    const sharedWith = list ?? organizations.filter((row) => row.broker_id === contract.owner.id).map((row) => row.id);
    for (const organizationId of sharedWith) {
      shares.push({ id: contractShareId(contract.id, organizationId), contract_id: contract.id, organization_id: organizationId });
    }
    return contract;
  });
  return { ...data, tables: { ...data.tables, contracts: stripped, contractShares: shares } };
}

/**
 * Scopes of clients from a file written when the seed's three scopes were all there were: a client
 * that held all three held every scope, and holds every scope now (production's finer ones too);
 * a client with fewer (the limited one) keeps what it had. Such a file is told by its clients: no
 * client of it holds a scope beyond the three, as none could then. In a file written since, a
 * client given just the three (a pack may ask for that) holds just the three: read again after a
 * restart, it must not gain the scopes it was refused before.
 */
function upgradeScopes(data: StateData): StateData {
  const clients = data.tables.clients;
  const seeds: readonly string[] = seedScopes;
  if (!clients || clients.some((client) => client.scopes.some((scope) => !seeds.includes(scope)))) return data;
  const old = (client: ClientRecord) => client.scopes.length === seedScopes.length && seedScopes.every((scope) => client.scopes.includes(scope));
  if (!clients.some(old)) return data;
  const upgraded = clients.map((client) => (old(client) ? { ...client, scopes: [...scopes] } : client));
  return { ...data, tables: { ...data.tables, clients: upgraded } };
}

/**
 * Fills in what rows of data files written by older versions lack, as they are loaded: a file's
 * `organization_id` (from its shipment), which the files quota counts by; the shares of broker
 * contracts as rows of their own; the scopes a full client holds now. Data without such rows is
 * handed back as it is (the same object), so the caller can tell whether anything changed.
 */
export function upgradeRows(data: StateData): StateData {
  return upgradeScopes(upgradeShares(upgradeFiles(data)));
}

function upgradeFiles(data: StateData): StateData {
  const files = data.tables.files;
  if (!files?.some((file) => file.organization_id === undefined)) return data;
  const owners = new Map((data.tables.shipments ?? []).map((shipment) => [shipment.id, shipment.organization_id]));
  const upgraded = files.map((file) => (file.organization_id !== undefined ? file : { ...file, organization_id: owners.get(file.shipment_id)! }));
  return { ...data, tables: { ...data.tables, files: upgraded } };
}
