import type { Kind } from '../../http/context.js';
import { fileType, ownedFile, type AnyFile } from './file-owners.js';
import { fileKind } from './shipment-kinds.js';

/**
 * Every `files` resource the API answers: a shipment's documents, a manifest's and a return
 * report's CSV. `include` reaches all of them through this one kind of the type `files`, and each
 * answers at GET /files/{file_id}, its `self`, whoever owns it.
 */
export const filesKind: Kind<AnyFile> = {
  type: 'files',
  attributesSchema: fileKind.attributesSchema,
  attributes: (row) => ({ ...fileType(row), created_at: row.created_at }),
  relationships: {},
  self: (row) => `/files/${row.id}`,
  load: (ctx, id) => ownedFile(ctx, id)?.row,
};
