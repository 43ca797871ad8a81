import { z } from 'zod';
import type { Ctx, Kind } from '../http/context.js';
import { endpoint, type Auth, type Endpoint, type ResponseSpec } from '../http/endpoint.js';
import { jsonApi } from '../http/respond.js';
import { resourceDocument } from '../jsonapi/document.js';
import { ApiError } from '../jsonapi/errors.js';
import { checkIdentity } from '../jsonapi/request.js';
import { errorDocument, type resourceSchemas } from '../jsonapi/schemas.js';
import type { Tx } from '../store/store.js';
import type { Row, TableName } from '../store/tables.js';
import { pascal } from './read-endpoints.js';

/** A write request's resource object, as `resourceRequest` validates it. */
type Data = { type: string; id?: string };
type Body = z.ZodType<{ data: Data }>;
type DataOf<B extends Body> = z.output<B>['data'];

/** What one write endpoint says of itself in the OpenAPI document; the rest comes from the declaration. */
interface WriteDoc {
  summary: string;
  description: string;
  /** Who may call it, when it differs from the declaration's `auth`. */
  auth?: Auth;
  /** Description of the success answer (201, 200 or 204). */
  answer: string;
  /** The refusals it documents, by status: each answers a JSON:API errors document. */
  errors?: Readonly<Record<number, string>>;
}

interface CreateDoc<T extends TableName, B extends Body> extends WriteDoc {
  body: B;
  /** The create rule: checks the resource object and inserts the row, in the handler's transaction. */
  insert: (tx: Tx, ctx: Ctx, data: DataOf<B>) => Row<T>;
}

interface UpdateDoc<T extends TableName, B extends Body> extends WriteDoc {
  body: B;
  /** The update rule: checks the changes and applies them to the caller's row, in the handler's transaction. */
  change: (tx: Tx, ctx: Ctx, row: Row<T>, data: DataOf<B>) => Row<T>;
}

interface DeleteDoc<T extends TableName> extends WriteDoc {
  /** What deleting takes besides the row; the row alone when left out. */
  remove?: (tx: Tx, ctx: Ctx, row: Row<T>) => void;
}

/** One declaration of a simple owned resource's writes: create, update and delete. */
export interface WriteOptions<T extends TableName, C extends Body, U extends Body> {
  /** How the answers render the row (the language-neutral kind where reads follow `Accept-Language`). */
  kind: Kind<Row<T>>;
  table: T;
  tag: string;
  /** The singular name: `return reason` makes `createReturnReason` and `{return_reason_id}`. */
  noun: string;
  /** The collection's path; `/{type}` when left out. */
  path?: string;
  auth: Auth;
  schemas: ReturnType<typeof resourceSchemas>;
  /** Include paths the answers of create and update take. */
  include?: readonly string[];
  /** The owner check: the row of the path the caller may change, or the error it answers instead (404 for one it cannot see). */
  own: (ctx: Ctx, id: string) => Row<T>;
  create: CreateDoc<T, C>;
  update: UpdateDoc<T, U>;
  delete: DeleteDoc<T>;
}

function responses(doc: WriteDoc, status: number, schema?: z.ZodType): Record<number, ResponseSpec> {
  const errors = Object.entries(doc.errors ?? {}).map(([code, description]) => [code, { description, schema: errorDocument }]);
  return { [status]: schema ? { description: doc.answer, schema } : { description: doc.answer }, ...Object.fromEntries(errors) };
}

/** The row the caller's write is about, still there once the transaction runs (a data replacement may come first). */
function stillThere<T extends TableName>(tx: Tx, table: T, type: string, row: Row<T>): Row<T> {
  const current = tx.get(table, row.id);
  if (!current) throw ApiError.notFound(type, row.id);
  return current;
}

/**
 * `POST /{type}`, `PATCH /{type}/{id}` and `DELETE /{type}/{id}` of a resource its organization
 * owns: the handler checks the body's type (and id), finds the caller's row, opens the
 * transaction the declaration's rule runs in, and answers the whole resource (201 with
 * `Location`, 200) or 204.
 */
export function writeEndpoints<T extends TableName, C extends Body, U extends Body>(options: WriteOptions<T, C, U>): Endpoint[] {
  const { kind, table, schemas, own } = options;
  const type = kind.type;
  const idName = `${options.noun.replace(/ /g, '_')}_id`;
  const collection = options.path ?? `/${type}`;
  const member = `${collection}/{${idName}}`;
  const params = z.object({ [idName]: z.string() });
  const idOf = (path: unknown) => (path as Record<string, string>)[idName]!;
  const name = pascal(options.noun);
  const { create, update } = options;
  const remove = options.delete;
  return [
    endpoint({
      method: 'post',
      path: collection,
      operationId: `create${name}`,
      summary: create.summary,
      description: create.description,
      tag: options.tag,
      auth: create.auth ?? options.auth,
      table,
      body: create.body,
      responses: responses(create, 201, schemas.document),
      include: options.include,
      handler: async (ctx, { body, include }) => {
        const data = (body as z.output<C>).data;
        checkIdentity(data, type);
        // Rendered in the transaction: while the row waits to be durable, another request (a DELETE
        // of what it includes) may change what the answer would include.
        const { row, document } = await ctx.store.transact((tx) => {
          const row = create.insert(tx, ctx, data);
          return { row, document: resourceDocument(ctx, kind, row, include) };
        });
        return jsonApi(document, 201, { location: ctx.url(kind.self(row)) });
      },
    }),
    endpoint({
      method: 'patch',
      path: member,
      operationId: `update${name}`,
      summary: update.summary,
      description: update.description,
      tag: options.tag,
      auth: update.auth ?? options.auth,
      params,
      table,
      body: update.body,
      responses: responses(update, 200, schemas.document),
      include: options.include,
      handler: async (ctx, { params: path, body, include }) => {
        const current = own(ctx, idOf(path));
        const data = (body as z.output<U>).data;
        checkIdentity(data, type, current.id);
        // Rendered in the transaction, as the create's answer is.
        const document = await ctx.store.transact((tx) =>
          resourceDocument(ctx, kind, update.change(tx, ctx, stillThere(tx, table, type, current), data), include),
        );
        return jsonApi(document);
      },
    }),
    endpoint({
      method: 'delete',
      path: member,
      operationId: `delete${name}`,
      summary: remove.summary,
      description: remove.description,
      tag: options.tag,
      auth: remove.auth ?? options.auth,
      params,
      table,
      responses: responses(remove, 204),
      handler: async (ctx, { params: path }) => {
        const current = own(ctx, idOf(path));
        await ctx.store.transact((tx) => {
          const row = stillThere(tx, table, type, current);
          if (remove.remove) remove.remove(tx, ctx, row);
          else tx.remove(table, row.id);
        });
        return new Response(null, { status: 204 });
      },
    }),
  ];
}
