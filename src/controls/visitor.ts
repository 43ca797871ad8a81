import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { signToken } from '../auth/tokens.js';
import { foreignOriginOf } from '../http/control-access.js';
import { appEndpoint } from '../http/app-context.js';
import { plainJson } from '../http/respond.js';
import { ApiError } from '../jsonapi/errors.js';
import { scopes } from '../model/tenancy.js';
import type { Services } from '../http/services.js';
import { errorResponse } from './responses.js';
import { createTenant } from './tenants.js';
import { exampleReplacements, prepareExamples } from './examples.js';
import { defaultExampleIds, tenantExampleIds } from '../docs/served-document.js';

/*
 * The docs-site mode (`--tenant-per-visitor`): the API reference page asks for a short-lived
 * tenant of the visitor's own and authorizes "try it out" with it, so no visitor ever reads or
 * changes the seeded data or another visitor's. Only the page itself may ask (same origin, on a
 * host the controls answer for); the tenant cap bounds how many exist, the oldest visitor tenant
 * making way for a new one, never a tenant of the controls.
 */

const visitorTenant = z
  .object({
    client_id: z.string(),
    client_secret: z.string().describe("The visitor's own client secret (the page fills the Authorize dialog with it)."),
    organization_id: z.string(),
    shop_id: z.string(),
    expires_at: z.number().int().describe('When the tenant is removed, Unix seconds on the sandbox clock'),
    ttl: z.number().int().describe('Seconds until then'),
    token_type: z.literal('Bearer'),
    access_token: z.string().describe("An access token of the visitor's client, with every scope"),
    expires_in: z.number().int().describe('Seconds the access token is valid for (it stops working with the tenant, whichever comes first)'),
    examples: z
      .record(z.string(), z.string())
      .describe(
        "The example values of the default tenant (ids, client, page tokens) and the visitor's own in their place: the page shows the examples with the visitor's rows, made for them in the new tenant (the admin's rows when the admin token first executes one: POST /_sandbox/examples with the visitor's client_id).",
      ),
  })
  .meta({ id: 'SandboxVisitorTenant' });

const visitorHeaders = z.object({
  Origin: z.string().optional().describe("The page asking; browsers send it. Only this sandbox's own origin (or its PUBLIC_URL) is served."),
  'Sec-Fetch-Site': z.string().optional().describe('Sent by browsers; a cross-site or same-site page is refused.'),
});

/** Refuses anything but a page of this sandbox: a request without `Origin` (no browser page) or with another origin. */
function requireOwnPage(services: Services, requestUrl: string, headers: z.output<typeof visitorHeaders>): void {
  const foreign = foreignOriginOf(services, requestUrl, { origin: headers.Origin, secFetchSite: headers['Sec-Fetch-Site'] });
  if (foreign === undefined && headers.Origin !== undefined) return;
  throw ApiError.of(
    'actionNotAllowed',
    foreign === undefined
      ? 'Only the API reference page of this sandbox (/docs) may ask for a visitor tenant, and browsers say so with an Origin header; this request has none. Programs create tenants with POST /_sandbox/tenants and the admin token.'
      : `Only the API reference page of this sandbox (/docs) may ask for a visitor tenant; this request comes from ${foreign}.`,
    { source: { header: 'Origin' } },
  );
}

const json = ['application/json'] as const;

export const visitorEndpoints = [
  appEndpoint({
    method: 'post',
    path: '/_sandbox/visitor',
    operationId: 'createSandboxVisitorTenant',
    summary: 'A short-lived tenant for a visitor of the API reference page',
    description:
      'Only with `--tenant-per-visitor` (TENANT_PER_VISITOR=true); otherwise 404. The API reference page (`/docs`) calls it once per browser tab (it keeps the answer in sessionStorage): it creates a tenant like POST /_sandbox/tenants with the visitor ttl (VISITOR_TTL, default 1800 s) and answers its credentials with a ready access token, which the page hands to "try it out". Only a page of this sandbox\'s own origin may call it (403 otherwise, also without an Origin header), on a host the controls answer for (421 otherwise); like every `/_sandbox/` path it sends no CORS headers. Visitor tenants count against MAX_TENANTS: at the cap the oldest visitor tenant makes way, never a tenant made through POST /_sandbox/tenants; with no visitor tenant to make way the answer is 429.',
    tag: 'Sandbox',
    auth: 'none',
    headers: visitorHeaders,
    produces: json,
    responses: {
      201: { description: "The visitor's tenant, its client credentials and an access token.", schema: visitorTenant, contentTypes: json },
      403: errorResponse('Not a page of this sandbox: another origin, or no Origin header (10013).'),
      404: errorResponse('The sandbox was not started with --tenant-per-visitor (10000).'),
      429: errorResponse('The cap (MAX_TENANTS) is reached and no visitor tenant can make way (10011); Retry-After says when to try again.'),
    },
    handler: async (ctx, { headers }) => {
      const { services } = ctx;
      const { config, keys, clock } = services;
      if (!config.tenantPerVisitor) {
        throw ApiError.of(
          'notFound',
          'This sandbox makes no visitor tenants: start it with --tenant-per-visitor (TENANT_PER_VISITOR=true) for a tenant per visitor of /docs.',
        );
      }
      requireOwnPage(services, ctx.requestUrl.href, headers);
      const tenant = await createTenant(services, { ttl: config.visitorTtl }, { visitor: true });
      const { token, expiresIn } = await signToken(keys, clock, config, { clientId: tenant.client_id, scopes, jti: randomUUID(), generation: 0 });
      const expiresAt = tenant.expires_at!;
      const ids = tenantExampleIds(services, {
        organizationId: tenant.organization_id,
        clientId: tenant.client_id,
        clientSecret: tenant.client_secret,
        shopId: tenant.shop_id,
      });
      // The visitor's rows, made before the page shows them: the ids of its demo orders are drawn
      // when they are made. Not the admin's rows (a contract template, system messages, three
      // scratch tenants under MAX_TENANTS): this answers anyone who loads the page, and only the
      // admin token executes those examples; the page has them made, naming the visitor's client,
      // before that token's first Execute (POST /_sandbox/examples).
      await prepareExamples(services, ids, false);
      const examples = exampleReplacements(defaultExampleIds(services), ids);
      return plainJson(
        { ...tenant, expires_at: expiresAt, ttl: expiresAt - clock.now(), token_type: 'Bearer', access_token: token, expires_in: expiresIn, examples },
        201,
        { 'cache-control': 'no-store', pragma: 'no-cache' },
      );
    },
  }),
];
