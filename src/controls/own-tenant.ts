import type { Services } from '../http/services.js';
import { ApiError } from '../jsonapi/errors.js';
import { clientsOf } from './tenant-reset.js';

/**
 * With a tenant's token a control's query may name only that tenant. Another tenant's id is
 * refused in the same words as an id that names nothing, so the answer does not tell a tenant
 * which other organizations or clients exist. Naming both is left to the control's own check.
 */
export function refuseOtherTenant(services: Services, own: string, query: { organization_id?: string | undefined; client_id?: string | undefined }): void {
  if (query.organization_id !== undefined && query.client_id !== undefined) return;
  const parameter = query.organization_id !== undefined ? 'organization_id' : query.client_id !== undefined ? 'client_id' : undefined;
  if (parameter === undefined) return;
  const value = query[parameter]!;
  const mine = parameter === 'organization_id' ? value === own : clientsOf(services, own).has(value);
  if (!mine) throw ApiError.of('resourceNotFound', `No tenant with ${parameter} '${value}' exists in your organization.`, { source: { parameter } });
}
