/** Where in the request an error was found. */
export type ErrorSource = { pointer: string } | { parameter: string } | { header: string };

/** One entry of a JSON:API `errors` array; `status` and `code` are strings, as production sends them. */
export interface ErrorObject {
  status: string;
  code: string;
  title: string;
  detail: string;
  source?: ErrorSource;
  meta?: Record<string, unknown>;
}

/** The error codes of the API and their default HTTP status and title. */
const codes = {
  notFound: { code: '10000', status: 404, title: 'Not Found' },
  internal: { code: '10001', status: 500, title: 'Internal Server Error' },
  // Production has no code of its own for this; 10001 is its code for a failure on the server's side.
  unavailable: { code: '10001', status: 503, title: 'Service Unavailable' },
  resourceNotFound: { code: '10002', status: 404, title: 'Resource Not Found' },
  invalidSchema: { code: '10003', status: 400, title: 'Invalid JSON Schema' },
  // Production's code for a body it cannot use; the title says that the body is not JSON at all.
  notJson: { code: '10003', status: 400, title: 'Request Body Is Not JSON' },
  invalidHeader: { code: '10004', status: 406, title: 'Invalid Request Header' },
  tooLarge: { code: '10003', status: 413, title: 'Request Body Too Large' },
  // What Node's HTTP parser refuses before the app sees it (server/client-errors.ts); the status varies (400, 408, 413, 431).
  malformedRequest: { code: '10004', status: 400, title: 'Malformed HTTP Request' },
  cannotModify: { code: '10005', status: 423, title: 'Resource Cannot Be Modified' },
  conflict: { code: '10007', status: 409, title: 'Resource Conflict' },
  unprocessable: { code: '10008', status: 422, title: 'Unprocessable Entity' },
  methodNotAllowed: { code: '10009', status: 405, title: 'Method Not Allowed' },
  actionNotAllowed: { code: '10013', status: 403, title: 'Action Not Allowed' },
  // Production's title, word for word (its other titles are capitalized; this one is a sentence).
  tooManyRequests: { code: '10011', status: 429, title: 'Too many requests.' },
  carrierError: { code: '13002', status: 422, title: 'Carrier API Error' },
  invalidClient: { code: '14000', status: 401, title: 'Invalid OAuth Client' },
  invalidScope: { code: '14001', status: 400, title: 'Scope Not Available To Client' },
  invalidToken: { code: '14002', status: 401, title: 'Access Token Is Invalid' },
  missingToken: { code: '14003', status: 401, title: 'No Access Token Provided' },
  missingScope: { code: '14004', status: 403, title: 'Missing Scope In Access Token' },
} as const;

export type CodeName = keyof typeof codes;

/*
 * A 401 for a missing or bad access token names the scheme to use (RFC 6750 section 3), as OAuth
 * client libraries read it. Token requests refused for their client credentials (14000) carry no
 * `Basic` challenge: browsers answer one with a login dialog, also for a page's fetch (the API
 * reference page's own token form among them).
 */
const BEARER_CHALLENGES = {
  missingToken: 'Bearer realm="parcel-sandbox"',
  invalidToken: 'Bearer realm="parcel-sandbox", error="invalid_token"',
} as const;

/**
 * The one error type of the sandbox. Anything thrown while handling a request ends up as a
 * JSON:API errors document; an ApiError says exactly which one.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly errors: ErrorObject[];
  readonly headers: Record<string, string>;

  constructor(errors: ErrorObject[], options: { status?: number; headers?: Record<string, string> } = {}) {
    super(errors.map((e) => e.detail).join('; '));
    this.errors = errors;
    this.status = options.status ?? Number(errors[0]?.status ?? 500);
    this.headers = options.headers ?? {};
  }

  /** One error of a known kind; `status` overrides the code's default HTTP status. */
  static of(
    kind: CodeName,
    detail: string,
    extra: { source?: ErrorSource; meta?: Record<string, unknown>; status?: number; headers?: Record<string, string> } = {},
  ): ApiError {
    const status = extra.status ?? codes[kind].status;
    const challenge = BEARER_CHALLENGES[kind as keyof typeof BEARER_CHALLENGES];
    const headers = challenge === undefined ? extra.headers : { 'www-authenticate': challenge, ...extra.headers };
    return new ApiError([errorObject(kind, detail, { ...extra, status })], { status, headers });
  }

  static notFound(type: string, id: string, pointer?: string): ApiError {
    return ApiError.of('resourceNotFound', `No ${type} resource with id '${id}' exists.`, pointer ? { source: { pointer } } : {});
  }

  static invalid(detail: string, pointer: string): ApiError {
    return ApiError.of('invalidSchema', detail, { source: { pointer } });
  }

  static unprocessable(detail: string, pointer?: string): ApiError {
    return ApiError.of('unprocessable', detail, pointer === undefined ? {} : { source: { pointer } });
  }
}

/** Builds one error object of a known kind. */
export function errorObject(
  kind: CodeName,
  detail: string,
  extra: { source?: ErrorSource; meta?: Record<string, unknown>; status?: number } = {},
): ErrorObject {
  const { code, title } = codes[kind];
  const error: ErrorObject = { status: String(extra.status ?? codes[kind].status), code, title, detail };
  if (extra.source) error.source = extra.source;
  if (extra.meta) error.meta = extra.meta;
  return error;
}

/** Turns a property path into a JSON Pointer (RFC 6901), escaping `~` and `/`. */
export function toPointer(path: readonly (string | number | symbol)[]): string {
  return path.map((part) => '/' + String(part).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}
