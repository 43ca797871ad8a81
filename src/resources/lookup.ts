import type { Ctx } from '../http/context.js';
import { ApiError } from '../jsonapi/errors.js';
import type { Row, TableName } from '../store/tables.js';

/**
 * The row with `id`, or a 404/10002 error. A row the caller may not see answers exactly like
 * a missing one, so other tenants' ids reveal nothing.
 */
export function findOr404<T extends TableName>(ctx: Ctx, table: T, type: string, id: string, visible: (row: Row<T>) => boolean = () => true): Row<T> {
  const row = ctx.store.get(table, id);
  if (!row || !visible(row)) throw ApiError.notFound(type, id);
  return row;
}
