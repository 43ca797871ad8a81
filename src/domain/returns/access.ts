import type { ShopRecord } from '../../model/shop.js';
import type { ReadView } from '../../store/store.js';
import type { Row, TableName } from '../../store/tables.js';
import { DomainError, type Field } from '../errors.js';
import type { Acting } from '../rules.js';

/** The organization the caller acts for; every returns rule is scoped to it. */
export function organizationOf(acting: Acting): string {
  const id = acting.principal?.organizationId;
  if (!id) throw new Error('returns rules need an authenticated caller');
  return id;
}

type Owned = { id: string; organization_id: string };

/** The caller's row of a table, or `undefined` for one that is missing or another tenant's. */
export function ownRow<T extends TableName>(acting: Acting, table: T, id: string | undefined): (Row<T> & Owned) | undefined {
  if (id === undefined) return undefined;
  const row = acting.rules.store.get(table, id) as (Row<T> & Owned) | undefined;
  return row && row.organization_id === organizationOf(acting) ? row : undefined;
}

/** The same, or 404/10002 worded like a missing id, so another tenant's ids reveal nothing. */
export function ownOr404<T extends TableName>(acting: Acting, table: T, type: string, id: string): Row<T> & Owned {
  const row = ownRow(acting, table, id);
  if (!row) throw DomainError.notFound(`No ${type} resource with id '${id}' exists.`);
  return row;
}

/** One of the caller's shops, or `undefined`. */
export function ownShop(store: ReadView, organizationId: string, id: string | undefined): ShopRecord | undefined {
  const shop = id === undefined ? undefined : store.get('shops', id);
  return shop && shop.organization_id === organizationId ? shop : undefined;
}

/** A shop named in the path: 404 when it is not the caller's. */
export function shopOr404(acting: Acting, id: string): ShopRecord {
  const shop = ownShop(acting.rules.store, organizationOf(acting), id);
  if (!shop) throw DomainError.notFound(`No shops resource with id '${id}' exists.`);
  return shop;
}

/** A related resource named in a body that is missing or not the caller's: 422 at its id (`field`). */
export function unknownRelated(name: string, type: string, id: string, field: Field = { relationship: `${name}.id` }): DomainError {
  return DomainError.unprocessable(`The relationship '${name}' points at ${type} '${id}', which does not exist or is not available to you.`, field);
}
