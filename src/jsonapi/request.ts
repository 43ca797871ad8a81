import { z } from 'zod';
import { ApiError } from './errors.js';

/** `{data: {type, id}}` as sent for a to-one relationship; `data: null` clears it. */
export const toOneRef = z.object({ data: z.object({ type: z.string(), id: z.string() }).nullable() });
export type ToOneRef = z.infer<typeof toOneRef>;

/** `{data: [{type, id}, ...]}` as sent for a to-many relationship; entries may carry meta. */
export const toManyRef = z.object({
  data: z.array(z.object({ type: z.string(), id: z.string(), meta: z.record(z.string(), z.unknown()).optional() })),
});

/**
 * The JSON:API document of a create or update request. `type` is a free string here so that a
 * wrong type is answered with 409 (by `checkIdentity`) rather than as a schema violation.
 */
type AnyRecord = z.ZodRecord<z.ZodString, z.ZodUnknown>;

/*
 * The members every request document has are made once and shared by the ~40 declared requests
 * (zod schemas are costly to build, and every start builds these); they carry no id, so the JSON
 * Schema inlines each use as before. zod under resourceRequest at start (node --cpu-prof of importing
 * the compiled modules, least of 4, loaded machine): 4.2 -> 1.4 ms.
 */
const anyRecord: AnyRecord = z.record(z.string(), z.unknown());
const shared = {
  type: z.string(),
  createId: z.string().optional(),
  updateId: z.string(),
  meta: anyRecord.optional(),
  links: z.unknown().optional(),
};

export function resourceRequest<A extends z.ZodType, R extends z.ZodType, M extends z.ZodType = AnyRecord, D extends z.ZodType = AnyRecord>(options: {
  id: string;
  attributes: A;
  relationships: R;
  /** Schema of `data.meta`. */
  meta?: M;
  /** Schema of the document's top-level `meta`. */
  documentMeta?: D;
  /** Whether `documentMeta` must be sent (the document then says so); it is optional otherwise. */
  documentMetaRequired?: boolean;
  update?: boolean;
}) {
  const data = z.object({
    type: shared.type,
    id: options.update ? shared.updateId : shared.createId,
    attributes: options.attributes,
    relationships: options.relationships,
    meta: (options.meta ? options.meta.optional() : shared.meta) as z.ZodOptional<M>,
    links: shared.links,
  });
  const documentMeta = options.documentMeta && !options.documentMetaRequired ? options.documentMeta.optional() : (options.documentMeta ?? shared.meta);
  return z.object({ data, meta: documentMeta as z.ZodOptional<D> }).meta({ id: options.id });
}

/** 409/10007 unless the body's `type` (and `id`, for updates) match the endpoint and URL. */
export function checkIdentity(data: { type: string; id?: string }, type: string, id?: string): void {
  if (data.type !== type) {
    throw ApiError.of('conflict', `This endpoint takes resources of type '${type}', not '${data.type}'.`, { source: { pointer: '/data/type' } });
  }
  if (id !== undefined && data.id !== id) {
    throw ApiError.of('conflict', `The id in the body ('${data.id}') does not match the id in the URL ('${id}').`, { source: { pointer: '/data/id' } });
  }
}

/**
 * The id a to-one relationship points at, after checking its type. Missing or wrongly typed
 * references are 422/10008 with a pointer to the relationship.
 */
export function relatedId(ref: ToOneRef | undefined, name: string, types: readonly string[], required = true): string | undefined {
  const pointer = `/data/relationships/${name}`;
  if (!ref || ref.data === null) {
    if (required) throw ApiError.unprocessable(`The relationship '${name}' is required.`, pointer);
    return undefined;
  }
  if (!types.includes(ref.data.type)) {
    throw ApiError.unprocessable(`The relationship '${name}' must point at ${types.join(' or ')}, not '${ref.data.type}'.`, `${pointer}/data/type`);
  }
  return ref.data.id;
}

/** 422/10008 for a relationship that names a resource the caller cannot use. */
export function unknownRelated(name: string, type: string, id: string, pointer = `/data/relationships/${name}/data/id`): ApiError {
  return ApiError.unprocessable(`The relationship '${name}' points at ${type} '${id}', which does not exist or is not available to you.`, pointer);
}
