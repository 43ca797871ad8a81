import type { StateData } from './tables.js';

/**
 * Fills in what rows of data files written by older versions lack, as they are loaded: a file's
 * `organization_id` (from its shipment), which the files quota counts by. Data without such rows
 * is handed back as it is.
 */
export function upgradeRows(data: StateData): StateData {
  const files = data.tables.files;
  if (!files?.some((file) => file.organization_id === undefined)) return data;
  const owners = new Map((data.tables.shipments ?? []).map((shipment) => [shipment.id, shipment.organization_id]));
  const upgraded = files.map((file) => (file.organization_id !== undefined ? file : { ...file, organization_id: owners.get(file.shipment_id)! }));
  return { ...data, tables: { ...data.tables, files: upgraded } };
}
