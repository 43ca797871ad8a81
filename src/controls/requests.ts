import { z } from 'zod';
import { appEndpoint } from '../http/app-context.js';
import { integerParam } from '../http/params.js';
import { plainJson } from '../http/respond.js';
import { ApiError } from '../jsonapi/errors.js';
import { REQUEST_LOG_BODY_LIMIT, REQUEST_LOG_CAPACITY, REQUEST_LOG_DEFAULT_LIMIT, REQUEST_LOG_RESPONSE_LIMIT } from '../requestlog/log.js';
import { errorResponse } from './responses.js';
import { clientsOf } from './tenant-reset.js';

const capturedMessage = z
  .object({
    headers: z.record(z.string(), z.string()),
    body: z.unknown().optional().describe('Parsed JSON when the body is JSON, else text; secrets redacted.'),
    truncated: z.literal(true).optional().describe('The body was larger than the log keeps and is shown cut down.'),
    size: z.number().int().optional().describe('Size in bytes of a body larger than the log keeps.'),
    note: z.string().optional().describe('Why the body is not shown, or shown cut down, with its type and size.'),
  })
  .meta({ id: 'SandboxCapturedMessage' });

const requestLogEntry = z
  .object({
    id: z.number().int(),
    time: z.number().int().describe('Sandbox time the request arrived, Unix seconds'),
    method: z.string(),
    path: z.string().describe('Path with query string'),
    status: z.number().int(),
    duration_ms: z.number(),
    client_id: z.string().optional(),
    deprecated: z
      .array(
        z.object({
          id: z.string().describe("Production's name of the deprecated thing"),
          where: z.string().describe('`operation`, or the query parameter, header or body pointer the request used'),
          instead: z.string().describe('What to use instead'),
        }),
      )
      .optional()
      .describe('What the request used that production deprecates (its answer carried `Deprecation` and `Link`)'),
    request: capturedMessage,
    response: capturedMessage,
  })
  .meta({ id: 'SandboxRequestLogEntry' });

const requestLogList = z.object({ data: z.array(requestLogEntry) }).meta({ id: 'SandboxRequestLog' });

const json = ['application/json'] as const;

export const requestLogEndpoints = [
  appEndpoint({
    method: 'get',
    path: '/_sandbox/requests',
    operationId: 'listSandboxRequests',
    summary: 'Read the request log',
    description: `The last ${REQUEST_LOG_CAPACITY} requests and their responses, newest first (in memory, per sandbox process). Secrets are redacted on the parsed body, never on its text, at any depth and whatever its size: authorization and cookie headers, and members (or query parameters) named like a secret: client secrets, tokens, credentials, passwords, API keys (\`api_key\`, \`apiKey\`, \`dhl_api_secret\`, also written with escapes). A secret sent anywhere in a request (query, header, body, form field, a body the log cannot parse) is also scrubbed wherever it travels: links and Location headers, error details that quote it whole or in part, member names. Logo contents are replaced by their size. Request bodies over ${REQUEST_LOG_BODY_LIMIT / 1024} KiB and JSON responses over ${REQUEST_LOG_RESPONSE_LIMIT / 1024} Ki characters are shown cut down by their structure (every top-level member named, what does not fit noted) with their size and \`truncated\`; request bodies the log cannot parse (not JSON, not a form) are not shown, only noted; binary bodies are noted by type and size. A request whose client closed the connection before the answer is listed with status 499 and a note in place of the response body. Reading the log and /health are not logged. With a tenant's access token only requests of that tenant's clients are listed.`,
    tag: 'Sandbox',
    auth: 'control',
    query: z.object({
      client_id: z.string().min(1).optional().describe('Only requests of this client'),
      // Logged paths all start with '/': `path=shipments` would match nothing, silently.
      path: z
        .string()
        .regex(/^\//, "must start with '/', as every logged path does (path=/shipments)")
        .optional()
        .describe('Only requests whose path (with query, as the log shows it: secret values redacted) starts with this'),
      limit: integerParam.optional().describe(`How many entries (default ${REQUEST_LOG_DEFAULT_LIMIT}, at most ${REQUEST_LOG_CAPACITY})`),
    }),
    produces: json,
    responses: {
      200: { description: 'The matching requests, newest first.', schema: requestLogList, contentTypes: json },
      404: errorResponse("With a tenant's token: a client_id of another organization (10002, source.parameter client_id)."),
    },
    handler: (ctx, { query }) => {
      const limit = Math.min(query.limit ?? REQUEST_LOG_DEFAULT_LIMIT, REQUEST_LOG_CAPACITY);
      const tenant = ctx.principal;
      const own = tenant ? clientsOf(ctx.services, tenant.organizationId) : undefined;
      // A tenant names only its own clients: another organization's is unknown, as on every control.
      // The admin may name any id, also of a client removed since: the log outlives its clients.
      if (own && query.client_id !== undefined && !own.has(query.client_id)) {
        throw ApiError.of('resourceNotFound', `No client '${query.client_id}' exists in your organization.`, { source: { parameter: 'client_id' } });
      }
      const data = ctx.services.requestLog.list({
        limit,
        ...(own ? { clientIds: own } : {}),
        ...(query.client_id ? { clientId: query.client_id } : {}),
        ...(query.path ? { path: query.path } : {}),
      });
      return plainJson({ data });
    },
  }),
];
