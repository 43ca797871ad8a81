/**
 * The errors the rules throw. They say what went wrong in domain terms (not found, invalid at
 * a place in the request, a conflict, locked); one mapping at the HTTP edge
 * (src/http/domain-errors.ts) turns them into JSON:API errors with codes and statuses.
 */

/** Where in the request a problem lies: a JSON pointer into the body, a query parameter or a header. */
export type Where = { pointer: string } | { parameter: string } | { header: string };

export interface Problem {
  detail: string;
  where?: Where;
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

  static invalid(detail: string, where?: Where): DomainError {
    return new DomainError('invalid', [{ detail, where }]);
  }

  static unprocessable(detail: string, where?: Where): DomainError {
    return new DomainError('unprocessable', [{ detail, where }]);
  }

  static notFound(detail: string, where?: Where): DomainError {
    return new DomainError('not-found', [{ detail, where }]);
  }

  static conflict(detail: string, where?: Where): DomainError {
    return new DomainError('conflict', [{ detail, where }]);
  }

  static locked(detail: string, where?: Where): DomainError {
    return new DomainError('locked', [{ detail, where }]);
  }

  static notAllowed(detail: string, where?: Where): DomainError {
    return new DomainError('not-allowed', [{ detail, where }]);
  }

  static carrierRefused(detail: string, where?: Where, meta?: Record<string, unknown>): DomainError {
    return new DomainError('carrier-refused', [{ detail, where, meta }]);
  }

  static quotaExceeded(detail: string, meta: Record<string, unknown>): DomainError {
    return new DomainError('quota-exceeded', [{ detail, meta }]);
  }

  static badHeader(detail: string, header: string): DomainError {
    return new DomainError('bad-header', [{ detail, where: { header } }]);
  }
}

/** Production's wording for an id in a body that names nothing the caller can see, where it answers 404 (10002) for it. */
export const NO_RELATED = 'No resource was found for the given relationship ID.';

/**
 * An id in a body that does not exist or is another tenant's (the same), on an operation where
 * production documents 404 for it: 404 (10002) at its pointer, in production's words. Elsewhere
 * such an id is a 422 (the seed's rule).
 */
export function missingRelated(name: string, type: string, id: string, pointer = `/data/relationships/${name}/data/id`): DomainError {
  return DomainError.notFound(`${NO_RELATED} The relationship '${name}' points at ${type} '${id}', which does not exist or is not available to you.`, {
    pointer,
  });
}

/** Where a body member lies, as a JSON pointer. */
export const at = (pointer: string): Where => ({ pointer });
