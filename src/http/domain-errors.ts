import type { DomainError, DomainErrorKind } from '../domain/errors.js';
import { ApiError, errorObject, type CodeName } from '../jsonapi/errors.js';

/** The API's error code, and HTTP status where it differs from the code's default, per domain error kind. */
const codeOf: Record<DomainErrorKind, { code: CodeName; status?: number }> = {
  invalid: { code: 'invalidSchema' },
  unprocessable: { code: 'unprocessable' },
  'not-found': { code: 'resourceNotFound' },
  conflict: { code: 'conflict' },
  locked: { code: 'cannotModify' },
  'not-allowed': { code: 'actionNotAllowed' },
  'bad-header': { code: 'invalidHeader', status: 400 },
  'carrier-refused': { code: 'carrierError' },
  'quota-exceeded': { code: 'tooManyRequests' },
};

/** The one mapping from a domain error to the JSON:API error the client gets. */
export function apiErrorOf(error: DomainError): ApiError {
  const { code, status } = codeOf[error.kind];
  const errors = error.problems.map((problem) =>
    errorObject(code, problem.detail, { status, ...(problem.where ? { source: problem.where } : {}), ...(problem.meta ? { meta: problem.meta } : {}) }),
  );
  return new ApiError(errors, status ? { status } : {});
}
