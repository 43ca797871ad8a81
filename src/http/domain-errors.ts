import { partsOf, type DomainError, type DomainErrorKind, type Field, type FieldKind, type Path } from '../domain/errors.js';
import { ApiError, errorObject, type CodeName, type ErrorSource } from '../jsonapi/errors.js';

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

/** The steps of a path: `items[2].quantity` is `items`, `2`, `quantity`; '' has none. */
export function pathSteps(path: Path): string[] {
  return [...path.matchAll(/\[(\d+)\]|[^.[\]]+/g)].map((match) => match[1] ?? match[0]);
}

/** A JSON pointer of steps, each escaped as RFC 6901 says (`~` is `~0`, `/` is `~1`). */
const pointer = (steps: readonly string[]): ErrorSource => ({ pointer: steps.map((step) => `/${step.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('') });

/** A relationship names its resources in `data`: `contract.id` is `/data/relationships/contract/data/id`. */
function relationshipSteps(path: Path): string[] {
  const [name, ...inside] = pathSteps(path);
  if (name === undefined) return [];
  return inside.length === 0 ? [name] : [name, 'data', ...inside];
}

/** Where each kind of field is in a request: a JSON pointer into the body, a query parameter or a header. */
const sources: Record<FieldKind, (path: string) => ErrorSource> = {
  attribute: (path) => pointer(['data', 'attributes', ...pathSteps(path)]),
  relationship: (path) => pointer(['data', 'relationships', ...relationshipSteps(path)]),
  resourceMeta: (path) => pointer(['data', 'meta', ...pathSteps(path)]),
  meta: (path) => pointer(['meta', ...pathSteps(path)]),
  input: (path) => pointer(['data', ...pathSteps(path)]),
  parameter: (name) => ({ parameter: name }),
  header: (name) => ({ header: name }),
};

/** The `source` of an error about `field`: `{attribute: 'items[2].quantity'}` is `{pointer: '/data/attributes/items/2/quantity'}`. */
export function sourceOf(field: Field): ErrorSource {
  const [kind, path] = partsOf(field);
  return sources[kind](path);
}

/** The JSON pointer of a field in the body, or undefined for a parameter or a header (hook logs name it). */
export function pointerOf(field: Field): string | undefined {
  const source = sourceOf(field);
  return 'pointer' in source ? source.pointer : undefined;
}

/** The one mapping from a domain error to the JSON:API error the client gets. */
export function apiErrorOf(error: DomainError): ApiError {
  const { code, status } = codeOf[error.kind];
  const errors = error.problems.map((problem) =>
    errorObject(code, problem.detail, {
      status,
      ...(problem.field ? { source: sourceOf(problem.field) } : {}),
      ...(problem.meta ? { meta: problem.meta } : {}),
    }),
  );
  return new ApiError(errors, status ? { status } : {});
}
