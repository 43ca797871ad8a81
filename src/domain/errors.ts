/**
 * The errors the rules throw. They say what went wrong in domain terms (not found, invalid at
 * a field of the request, a conflict, locked) and name the field in the resource's own terms;
 * one mapping at the HTTP edge (src/http/domain-errors.ts) turns them into JSON:API errors with
 * codes, statuses and the JSON pointer, parameter or header each field is sent as.
 */

/**
 * A path through members and list entries, as the rules name a value inside another:
 * `recipient_address.country_code`, `items[2].quantity`, `[0].id`; '' is the value itself.
 */
export type Path = string;

/** The places a field can be in a request; each has one mapping at the edge. */
export type FieldKind = 'attribute' | 'relationship' | 'resourceMeta' | 'meta' | 'input' | 'parameter' | 'header';

/**
 * What in the request a problem is about, named by kind (one key) and path:
 * - `attribute`: an attribute of the resource sent, `recipient_address.country_code`, `items[2].quantity`;
 * - `relationship`: a relationship's name, then a path in what it names: `contract` (the
 *   relationship itself), `contract.id` (the id it names), `shipments[3].id`, `owner.type`; '' all of them;
 * - `resourceMeta`: a member of the resource's own meta (`logo.contents`);
 * - `meta`: a member of the request's meta (`add_to_next_collection`, `collection.collection_time`);
 * - `input`: a member of a body that is not a resource (an action's or a lookup's own shape):
 *   `shipment_ids[3]`, `items[0].item_value.currency`, `[2].id` of a list of references;
 * - `parameter`: a query parameter's name (`filter[date_to]`); `header`: a request header's name.
 */
export type Field = { [K in FieldKind]: { readonly [P in K]: string } }[FieldKind];

/** A field's kind and its path (or name). */
export function partsOf(field: Field): [FieldKind, string] {
  return Object.entries(field)[0] as [FieldKind, string];
}

/** The same field with `path` appended: `within({meta: 'logo'}, 'contents')` is `{meta: 'logo.contents'}`. */
export function within(field: Field, path: Path): Field {
  const [kind, base] = partsOf(field);
  const joined = base === '' || path.startsWith('[') ? `${base}${path}` : `${base}.${path}`;
  return { [kind]: joined } as Field;
}

export interface Problem {
  detail: string;
  field?: Field;
  meta?: Record<string, unknown>;
}

export type DomainErrorKind =
  /** The request does not have the form the rules need (a schema-level fault). */
  | 'invalid'
  /** A well-formed request that breaks a business rule. */
  | 'unprocessable'
  /** A resource that does not exist or that the caller may not see. */
  | 'not-found'
  /** The request clashes with the state of things (an identity mismatch, work still running). */
  | 'conflict'
  /** The resource can no longer be changed. */
  | 'locked'
  /** The caller may not do this to this resource. */
  | 'not-allowed'
  /** A request header has a value the rules cannot use. */
  | 'bad-header'
  /** The (sandbox) carrier refused what it was handed, as when registering in the same request. */
  | 'carrier-refused'
  /** The organization keeps as many rows of a kind as its quota allows. */
  | 'quota-exceeded';

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    readonly problems: readonly Problem[],
  ) {
    super(problems.map((problem) => problem.detail).join('; '));
  }

  static invalid(detail: string, field?: Field): DomainError {
    return new DomainError('invalid', [{ detail, field }]);
  }

  static unprocessable(detail: string, field?: Field): DomainError {
    return new DomainError('unprocessable', [{ detail, field }]);
  }

  static notFound(detail: string, field?: Field): DomainError {
    return new DomainError('not-found', [{ detail, field }]);
  }

  static conflict(detail: string, field?: Field): DomainError {
    return new DomainError('conflict', [{ detail, field }]);
  }

  static locked(detail: string, field?: Field): DomainError {
    return new DomainError('locked', [{ detail, field }]);
  }

  static notAllowed(detail: string, field?: Field): DomainError {
    return new DomainError('not-allowed', [{ detail, field }]);
  }

  static carrierRefused(detail: string, field?: Field, meta?: Record<string, unknown>): DomainError {
    return new DomainError('carrier-refused', [{ detail, field, meta }]);
  }

  static quotaExceeded(detail: string, meta: Record<string, unknown>): DomainError {
    return new DomainError('quota-exceeded', [{ detail, meta }]);
  }

  static badHeader(detail: string, header: string): DomainError {
    return new DomainError('bad-header', [{ detail, field: { header } }]);
  }
}

/** Production's wording for an id in a body that names nothing the caller can see, where it answers 404 (10002) for it. */
const NO_RELATED = 'No resource was found for the given relationship ID.';

/**
 * An id in a body that does not exist or is another tenant's (the same), on an operation where
 * production documents 404 for it: 404 (10002) at the id (`field`, the relationship's id by
 * default), in production's words. Elsewhere such an id is a 422 (the seed's rule).
 */
export function missingRelated(name: string, type: string, id: string, field: Field = { relationship: `${name}.id` }): DomainError {
  return DomainError.notFound(`${NO_RELATED} The relationship '${name}' points at ${type} '${id}', which does not exist or is not available to you.`, field);
}
