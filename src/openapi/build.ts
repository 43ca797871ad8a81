import {
  OpenApiBuilder,
  type OpenAPIObject,
  type OperationObject,
  type ParameterObject,
  type ResponsesObject,
  type SchemaObject,
  type SecurityRequirementObject,
} from 'openapi3-ts/oas31';
import { z } from 'zod';
import { bodyLimitOf, sizeText } from '../http/body-limits.js';
import { DEPRECATION_DATE } from '../http/deprecations.js';
import { takesOnlyDeclaredQuery, type Endpoint } from '../http/endpoint.js';
import { servedOperation } from '../http/served-operations.js';
import { acceptAddressNulls } from './address-nulls.js';
import { answerAsProduction } from './production-answers.js';
import { documentedAnswers, type DocumentedAnswer } from './documented-answers.js';
import { PRODUCTION_DEPRECATIONS } from '../fixtures/reference/production-operations.js';
// The fixture pack's schema (FixturePack) is one of the document's components, registered when its
// module loads; a start no longer loads it (fixtures/sections.ts), so the document does.
import '../fixtures/pack-schema.js';
import { JSONAPI_MEDIA_TYPE } from '../jsonapi/document.js';
import { errorDocument } from '../jsonapi/schemas.js';
import { scopes } from '../model/tenancy.js';
import { VERSION } from '../version.js';

const ref = (schema: z.ZodType): { $ref: string } => {
  const id = z.globalRegistry.get(schema)?.id;
  if (!id) throw new Error('request and response schemas need an id (.meta({ id }))');
  return { $ref: `#/components/schemas/${id}` };
};

/** JSON Schema of a single parameter, inline. */
function inlineSchema(schema: z.ZodType): SchemaObject {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return json as SchemaObject;
}

const errorResponse = (description: string) => ({
  description,
  content: { [JSONAPI_MEDIA_TYPE]: { schema: ref(errorDocument) } },
});

/** The rate-limit headers (http/rate-limit.ts), documented once as components and referred to where they are sent. */
const rateLimitHeaders = {
  'RateLimit-Limit': {
    description: 'Requests per minute the caller (its organization, or its address without a token) may make.',
    schema: { type: 'integer' },
  },
  'RateLimit-Remaining': { description: 'Requests left in the current minute.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the current minute ends and the count starts again.', schema: { type: 'integer' } },
} as const;
const retryAfter = {
  description:
    'Seconds to wait before trying again: until the rate limit lets a request through (429), or before sending a write the data file refused again (503).',
  schema: { type: 'integer' },
} as const;

/** The headers of an answer to a request that used something production deprecates (http/deprecations.ts). */
const deprecationHeaderSpecs = {
  Deprecation: {
    description: `Sent when the request used something production deprecates (this operation, a parameter, a header value or a body member): RFC 9745's structured field date, the date of production's document that marks it (${DEPRECATION_DATE}).`,
    schema: { type: 'string' },
  },
  Link: {
    description:
      'With `Deprecation`: one `rel="deprecation"` link per deprecated thing used, to the API reference of the operation that shows what to use instead, its `title` naming it.',
    schema: { type: 'string' },
  },
} as const;

/** Production's deprecated operations, and its deprecated query parameters by operation (fixtures/reference/production-operations.ts). */
const deprecatedOperations = new Set<string>();
const deprecatedParameters = new Map<string, Set<string>>();
for (const deprecation of PRODUCTION_DEPRECATIONS) {
  for (const use of deprecation.uses) {
    if (use.in === 'operation') deprecatedOperations.add(use.operation);
    if (use.in === 'query') deprecatedParameters.set(use.operation, (deprecatedParameters.get(use.operation) ?? new Set()).add(use.name));
  }
}

const headerRefs = (names: readonly string[]) => Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

const WRITE_REFUSED =
  'The change could not be written (10001): the data file refused it (a full disk, a read-only file system), a sandbox reset overtook it, or the sandbox is stopping. Nothing of it was kept, reads still work, and the same request may be sent again after `Retry-After` seconds.';

const TOO_MANY =
  "Too many requests (10011): the caller's requests per minute are used up (`Retry-After` says when to try again), or, for a request that would create shipments, hooks or files, the organization's quota of them is full (no `Retry-After`: deleting rows frees room; `meta` names the quota, its limit and the usage).";

function security(endpoint: Endpoint): SecurityRequirementObject[] {
  const { auth } = endpoint;
  if (auth === 'none') return [];
  // Without a token only where no admin token is configured; a tenant's token acts on that tenant.
  if (auth === 'control') return [{}, { SandboxAdmin: [] }, { OAuth2: [] }];
  if (auth === 'token') return [{ OAuth2: [] }];
  // Each requirement is one alternative; scopes that must all be held are listed together.
  const scoped = auth.anyOf.map((requirement) => ({ OAuth2: typeof requirement === 'string' ? [requirement] : [...requirement] }));
  // The broker's part: the admin token, or no token where none is configured (as at the controls).
  return auth.admin ? [...scoped, { SandboxAdmin: [] }, {}] : scoped;
}

/** What an operation's example fills in (docs/examples), as the document shows it. */
export interface OperationExample {
  path?: Record<string, string>;
  query?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
  body?: unknown;
  /** Executed with the admin token: the document says so in `x-example-token` (the page then sends it). */
  admin?: true;
}

/** The operation extension that says an example is meant for the admin token (the SandboxAdmin scheme). */
const EXAMPLE_TOKEN = 'x-example-token';

/** The parameter with the example's value for it, when the example has one. */
function withExample(parameter: ParameterObject, example: OperationExample | undefined): ParameterObject {
  const values = parameter.in === 'path' ? example?.path : parameter.in === 'query' ? example?.query : parameter.in === 'header' ? example?.headers : undefined;
  const value = values?.[parameter.name];
  if (value === undefined) return parameter;
  // A query or header value is text on the wire and its schema says so (type string): an example
  // written as a number or boolean (limit 5, filter true) would fail that schema in a generator.
  return { ...parameter, example: parameter.schema && 'type' in parameter.schema && parameter.schema.type === 'string' ? String(value) : value };
}

function parameters(endpoint: Endpoint, example?: OperationExample): ParameterObject[] {
  const list: ParameterObject[] = [];
  const pathShape: Record<string, z.ZodType> = endpoint.params instanceof z.ZodObject ? endpoint.params.shape : {};
  for (const match of endpoint.path.matchAll(/\{([^}]+)\}/g)) {
    const description = pathShape[match[1]!]?.description;
    list.push({ name: match[1]!, in: 'path', required: true, schema: { type: 'string' }, description });
  }
  for (const [name, schema] of Object.entries(endpoint.headers?.shape ?? {})) {
    // OpenAPI ignores header parameters of these names (the response media types and the security
    // schemes say them), and Swagger UI stops rendering on one.
    if (['accept', 'content-type', 'authorization'].includes(name.toLowerCase())) continue;
    const field = schema as z.ZodType;
    list.push({ name, in: 'header', required: !field.safeParse(undefined).success, schema: inlineSchema(field), description: field.description });
  }
  const deprecatedQuery = deprecatedParameters.get(servedOperation(endpoint).operation);
  for (const [name, schema] of Object.entries(endpoint.query?.shape ?? {})) {
    const field = schema as z.ZodType;
    const parameter: ParameterObject = {
      name,
      in: 'query',
      required: !field.safeParse(undefined).success,
      schema: inlineSchema(field),
      description: field.description,
    };
    if (deprecatedQuery?.has(name)) parameter.deprecated = true;
    list.push(parameter);
  }
  // An endpoint that offers no path (`include: []`) refuses any: nothing to document.
  if (endpoint.include && endpoint.include.length > 0) {
    // One text of comma separated paths, as production documents it (a string). Documented as a
    // list, clients generated from the document sent it their own way: openapi-fetch and others
    // serialise every array as repeated keys (include=a&include=b), whatever the parameter's
    // style says, and axios as include[]=a; the sandbox refuses both (400), and production (PHP)
    // keeps the last value alone. The pattern still lets a validator check the paths.
    const path = `(?:${endpoint.include.map((name) => name.replaceAll('.', '\\.')).join('|')})`;
    list.push({
      name: 'include',
      in: 'query',
      schema: { type: 'string', pattern: `^\\s*${path}\\s*(?:,\\s*${path}\\s*)*$` },
      description: `Relationship paths whose resources are embedded in \`included\`, in one value separated by commas (include=a,b): ${endpoint.include.map((name) => `\`${name}\``).join(', ')}.`,
    });
  }
  if (endpoint.paginated) {
    list.push(
      { name: 'page[number]', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
      { name: 'page[size]', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 30 } },
    );
  }
  return list.map((parameter) => withExample(parameter.description === undefined ? (({ description: _d, ...rest }) => rest)(parameter) : parameter, example));
}

/** The 413 of an endpoint, with its body limit as http/body-limits.ts derives it. */
function tooLargeText(endpoint: Endpoint): string {
  const limit = bodyLimitOf(endpoint, Number.POSITIVE_INFINITY);
  // BODY_LIMIT's default (config.ts) is 5 MiB; it also caps every smaller limit.
  const most = limit === Number.POSITIVE_INFINITY ? 'BODY_LIMIT (5 MiB unless configured)' : `${sizeText(limit)} (or BODY_LIMIT, when configured lower)`;
  const what = endpoint.body ? 'A body' : 'A body (this endpoint takes none)';
  return `${what} over ${most} (10003), refused on its Content-Length before anything else; \`meta.max_bytes\` gives the limit.`;
}

function responses(endpoint: Endpoint, answer?: DocumentedAnswer): ResponsesObject {
  const out: ResponsesObject = {};
  for (const [status, spec] of Object.entries(endpoint.responses)) {
    // Every failure answers with the errors document, whether or not the declaration names it.
    if (Number(status) >= 400 && !spec.schema) {
      out[status] = errorResponse(spec.description);
      continue;
    }
    const types = spec.contentTypes ?? [JSONAPI_MEDIA_TYPE];
    const binary = [...(spec.binary ?? []), ...(spec.schema ? [] : (spec.contentTypes ?? []))];
    const content = {
      ...(spec.schema ? Object.fromEntries(types.map((type) => [type, { schema: ref(spec.schema!) }])) : {}),
      ...Object.fromEntries(binary.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
    };
    // The answer the operation's example got, shown under its status and media type.
    const shown = answer && String(answer.status) === status ? (content as Record<string, Record<string, unknown>>)[answer.type] : undefined;
    if (shown) shown.example = answer!.body;
    out[status] = Object.keys(content).length > 0 ? { description: spec.description, content } : { description: spec.description };
  }
  const add = (status: string, description: string) => {
    out[status] ??= errorResponse(description);
  };
  // A control without parameters still refuses any it is sent (takesOnlyDeclaredQuery).
  if (endpoint.body || endpoint.query || endpoint.include || takesOnlyDeclaredQuery(endpoint))
    add('400', 'The request is malformed or violates the schema (10003); `source` names the field or parameter.');
  // Every endpoint reads its query (http/mount.ts): a filter, sort or include it does not take is refused, not ignored.
  else add('400', 'A filter, `sort`, `include` or page member this endpoint does not take (10003); `source.parameter` names it.');
  if (endpoint.auth === 'control') {
    add('401', 'With an admin token configured: no token (14003), or a bearer token that is neither the admin token nor a valid access token (14002).');
    add('403', "No token from a web page of another origin, or a tenant's access token where only the admin token may act (10013).");
    if (endpoint.method === 'post') add('415', 'The Content-Type is not JSON, or missing: every control POST needs Content-Type: application/json (10004).');
  } else if (typeof endpoint.auth === 'object' && endpoint.auth.admin) {
    add('401', 'No token where an admin token is configured (14003), or an invalid, expired or revoked one (14002).');
    add('403', 'No token from a web page of another origin (10013), or an access token that lacks every accepted scope (14004).');
  } else if (endpoint.auth !== 'none') add('401', 'No access token (14003), or an invalid, expired or revoked one (14002).');
  // Every /_sandbox/ path, the visitor endpoint (auth none) too: http/control-hosts.ts.
  if (endpoint.path.startsWith('/_sandbox/')) {
    add(
      '421',
      'Without the admin token, a Host the controls do not answer for (10013): they answer loopback names, IP addresses, the PUBLIC_URL host and ALLOWED_HOSTS.',
    );
  }
  if (typeof endpoint.auth === 'object') add('403', 'The access token lacks every accepted scope (14004).');
  if (endpoint.path.includes('{')) add('404', 'No such resource, or one of another tenant (10002).');
  add('406', 'The Accept header allows no type this endpoint answers with (10004).');
  if (endpoint.body) add('415', 'The Content-Type is not JSON (10004).');
  if (endpoint.method !== 'get') add('413', tooLargeText(endpoint));
  const deprecates = servedOperation(endpoint).deprecations !== undefined;
  if (endpoint.rateLimit !== false || deprecates) {
    // Every answer to a counted request carries the rate-limit headers; a 429 also Retry-After.
    // Where production deprecates something of the operation, a request that uses it is told so.
    const names = [...(endpoint.rateLimit !== false ? Object.keys(rateLimitHeaders) : []), ...(deprecates ? Object.keys(deprecationHeaderSpecs) : [])];
    for (const [status, response] of Object.entries(out)) {
      if (status.startsWith('2')) out[status] = { ...response, headers: headerRefs(names) };
    }
  }
  if (endpoint.rateLimit !== false) {
    out['429'] = { ...errorResponse(endpoint.responses[429]?.description ?? TOO_MANY), headers: headerRefs(['Retry-After', ...Object.keys(rateLimitHeaders)]) };
  }
  // Any request that changes data can meet a data file that refuses the change.
  if (endpoint.method !== 'get') {
    const headers = endpoint.rateLimit !== false ? ['Retry-After', ...Object.keys(rateLimitHeaders)] : ['Retry-After'];
    out['503'] = { ...errorResponse(WRITE_REFUSED), headers: headerRefs(headers) };
  }
  out.default = errorResponse('Unexpected error (10001), in the same errors document.');
  return out;
}

/** Who may call an operation, in words, from its declaration (so no description has to say it). */
export function accessText(endpoint: Endpoint): string | undefined {
  const { auth } = endpoint;
  if (auth === 'none' || auth === 'control') return undefined;
  if (auth === 'token') return 'Any valid access token; no scope is needed.';
  const named = auth.anyOf.map((requirement) => (typeof requirement === 'string' ? requirement : requirement.join(' and ')));
  const scopes = named.length === 1 ? `Scope: ${named[0]}.` : `Scopes: ${named.slice(0, -1).join(', ')} or ${named.at(-1)}.`;
  return auth.admin ? `${scopes} The admin token (SANDBOX_ADMIN_TOKEN), or no token on a sandbox without one, acts as the broker.` : scopes;
}

function operation(endpoint: Endpoint, example?: OperationExample, answer?: DocumentedAnswer): OperationObject {
  const op: OperationObject = {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    tags: [endpoint.tag],
    security: security(endpoint),
    parameters: parameters(endpoint, example),
    responses: responses(endpoint, answer),
  };
  const description = [endpoint.description, accessText(endpoint)].filter(Boolean).join(' ');
  if (description) op.description = description;
  if (example?.admin) op[EXAMPLE_TOKEN] = 'SandboxAdmin';
  if (deprecatedOperations.has(servedOperation(endpoint).operation)) op.deprecated = true;
  if (endpoint.body) {
    const types = endpoint.bodyFormat === 'json-or-form' ? ['application/json', 'application/x-www-form-urlencoded'] : [JSONAPI_MEDIA_TYPE, 'application/json'];
    const sample = example?.body === undefined ? {} : { example: example.body };
    op.requestBody = { required: !endpoint.bodyOptional, content: Object.fromEntries(types.map((type) => [type, { schema: ref(endpoint.body!), ...sample }])) };
  }
  return op;
}

/** Every schema with an id, as OpenAPI components referring to each other. */
function componentSchemas(): Record<string, SchemaObject> {
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    io: 'input',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, Record<string, unknown>> };
  const out: Record<string, SchemaObject> = {};
  for (const id of Object.keys(schemas).sort()) {
    const { $schema: _s, $id: _i, id: _id, ...schema } = schemas[id]!;
    out[id] = schema as SchemaObject;
  }
  return out;
}

interface BuildOptions {
  /**
   * The response schemas as the endpoints declare them, without the nulls and absences production's
   * contract allows (production-answers.ts): stricter, for checking the sandbox's own answers.
   */
  asDeclared?: boolean;
}

/**
 * The OpenAPI 3.1 document of `endpoints`, with `serverUrl` as server and token URL base, and the
 * examples of a tenant by operation id when given (the served document has them, the committed one not).
 * Both show the captured answers to the default tenant's examples as response examples (documented-answers.ts).
 */
export function buildOpenApi(
  endpoints: readonly Endpoint[],
  serverUrl: string,
  examples?: ReadonlyMap<string, OperationExample>,
  options: BuildOptions = {},
): OpenAPIObject {
  const builder = OpenApiBuilder.create({
    openapi: '3.1.0',
    info: {
      title: 'parcel-sandbox',
      version: VERSION,
      description: 'A local, stateful sandbox of the parcel-shipping JSON:API. Generated from the endpoint declarations.',
    },
    servers: [{ url: serverUrl }],
    paths: {},
    components: {},
  });
  builder.addSecurityScheme('OAuth2', {
    type: 'oauth2',
    description: 'OAuth 2.0 client credentials; send the token as `Authorization: Bearer <token>`.',
    flows: {
      clientCredentials: {
        tokenUrl: `${serverUrl}/access-token`,
        scopes: Object.fromEntries(scopes.map((scope) => [scope, `The ${scope} scope`])),
      },
    },
  });
  builder.addSecurityScheme('SandboxAdmin', {
    type: 'http',
    scheme: 'bearer',
    description: 'The SANDBOX_ADMIN_TOKEN, when one is configured: acts on every tenant.',
  });
  for (const [name, header] of Object.entries(rateLimitHeaders)) builder.addHeader(name, header);
  builder.addHeader('Retry-After', retryAfter);
  for (const [name, header] of Object.entries(deprecationHeaderSpecs)) builder.addHeader(name, header);
  const answers = documentedAnswers(serverUrl);
  const paths = new Map<string, Record<string, OperationObject>>();
  for (const endpoint of endpoints) {
    if (endpoint.internal) continue;
    const item = paths.get(endpoint.path) ?? {};
    item[endpoint.method] = operation(endpoint, examples?.get(endpoint.operationId), answers[endpoint.operationId]);
    paths.set(endpoint.path, item);
  }
  for (const path of [...paths.keys()].sort()) builder.addPath(path, paths.get(path)!);
  const schemas = componentSchemas();
  const requestIds = endpoints.flatMap((endpoint) => (endpoint.body && !endpoint.internal ? [z.globalRegistry.get(endpoint.body)?.id ?? ''] : []));
  acceptAddressNulls(schemas, requestIds);
  if (!options.asDeclared) {
    // The success answers of production's operations, each with the sandbox's schema of it.
    const answered = endpoints.flatMap((endpoint) =>
      endpoint.internal
        ? []
        : Object.entries(endpoint.responses).flatMap(([status, spec]) => {
            const responseId = status.startsWith('2') && spec.schema ? z.globalRegistry.get(spec.schema)?.id : undefined;
            return responseId ? [{ key: `${servedOperation(endpoint).operation} ${status}`, responseId }] : [];
          }),
    );
    answerAsProduction(schemas, requestIds, answered);
  }
  for (const [id, schema] of Object.entries(schemas)) builder.addSchema(id, schema);
  const tags = [...new Set(endpoints.map((endpoint) => endpoint.tag))].sort();
  for (const name of tags) builder.addTag({ name });
  return builder.getSpec();
}
