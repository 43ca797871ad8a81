// POST /_sandbox/examples: the rows the API reference's examples act on, made in the caller's tenant.
import { z } from 'zod';
import { defaultTenant, firstShop, makeExampleRows, type ExampleIds, type ExampleRequest } from '../docs/examples/index.js';
import { resolveExamples } from '../docs/examples/index.js';
import { tenantExampleIds } from '../docs/served-document.js';
import { appEndpoint } from '../http/app-context.js';
import { plainJson } from '../http/respond.js';
import type { Services } from '../http/services.js';
import { ApiError } from '../jsonapi/errors.js';
import { defaultClients } from '../fixtures/clients.js';
import type { ReadView } from '../store/store.js';
import { errorResponse } from './responses.js';
import { tenantOf } from './tenant-reset.js';

const made = z
  .object({
    organization_id: z.string(),
    made: z.boolean().describe('false when the rows were made before (they are made once per tenant, again after a reset)'),
    failed: z
      .array(z.string())
      .describe(
        'Rows that could not be made (their examples answer 404): a tenant made through the controls has no orders or returns configuration to make returns from',
      ),
    needs_admin_token: z
      .array(z.string())
      .describe(
        "Rows left out because only the admin token (SANDBOX_ADMIN_TOKEN, or no token on a sandbox without one) may make them, as the requests that make them directly would answer a tenant's token with 403 (a contract template, system messages, tenants of their own): made when the admin asks for the examples",
      ),
  })
  .meta({ id: 'SandboxExampleRows' });

/**
 * 422 when the tenant has no organization or no shop left for the examples' rows (a shipment
 * names a shop): they would be made for a stand-in that does not exist. A token names the tenant
 * by its Authorization header, the admin by a `client_id`; without either it is the default
 * client's, which anyone may change.
 */
function refuseWithoutShop(view: ReadView, organizationId: string, namedBy: 'token' | 'client_id' | 'default'): void {
  const deleted = !view.get('organizations', organizationId);
  if (!deleted && view.find('shops', 'organization_id', organizationId).length > 0) return;
  if (namedBy === 'token') {
    throw ApiError.of(
      'unprocessable',
      "Your organization has no shop, and the examples' rows are made in one: create a shop (POST /shops), or reset your tenant (POST /_sandbox/reset) to restore its shops.",
      { source: { header: 'Authorization' } },
    );
  }
  if (namedBy === 'client_id') {
    throw ApiError.unprocessable(
      "The organization of this client has no shop, and the examples' rows are made in one: POST /_sandbox/reset with its client_id restores its shops.",
      '/client_id',
    );
  }
  const client = defaultClients[0].id;
  throw ApiError.of(
    'unprocessable',
    deleted
      ? `The organization of the default client ${client} was deleted, and the examples' rows are made in it: POST /_sandbox/reset restores the seeded data.`
      : `The organization of the default client ${client} has no shop, and the examples' rows are made in one: POST /_sandbox/reset {"client_id": "${client}"} restores its shops.`,
  );
}

/** Makes a tenant's example rows (once), answering with what it did. */
export async function prepareExamples(
  services: Services,
  ids: ExampleIds,
  asAdmin = true,
): Promise<{ organization_id: string; made: boolean; failed: string[]; needs_admin_token: string[] }> {
  // In process the app sees paths as it routes them: no public URL's path prefix.
  const { made: done, failed, needsAdmin } = await makeExampleRows(services, services.dispatch!, ids, 'http://127.0.0.1', asAdmin);
  return { organization_id: ids.organization, made: done, failed, needs_admin_token: needsAdmin };
}

/** Every string of `tenant`'s examples that differs from the default tenant's, by the default's value: what a page replaces. */
export function exampleReplacements(defaults: ExampleIds, tenant: ExampleIds): Record<string, string> {
  const replacements: Record<string, string> = {};
  const walk = (a: unknown, b: unknown) => {
    if (typeof a === 'string' && typeof b === 'string') {
      if (a !== b) replacements[a] = b;
    } else if (a && b && typeof a === 'object' && typeof b === 'object') {
      for (const key of Object.keys(a)) walk((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]);
    }
  };
  const theirs = resolveExamples(tenant);
  for (const [operationId, example] of resolveExamples(defaults)) walk(example, theirs.get(operationId) as ExampleRequest);
  return replacements;
}

export const exampleEndpoints = [
  appEndpoint({
    method: 'post',
    path: '/_sandbox/examples',
    operationId: 'makeSandboxExampleRows',
    summary: "Make the rows the API reference's examples act on",
    description:
      "The examples of `/openapi.json` and `/docs` name rows made for them (a shipment to change, one to delete, a registered one to void, a hook, a zone, returns ...), with ids that follow from the tenant, so each example works the first time it is executed, in any order. This makes them in the caller's tenant (with the admin token, or no token on a sandbox without one: the tenant of `sandbox-client`, or of the body's `client_id`), once: again only after a reset of the tenant. With a tenant's own token it leaves out the rows only the admin token may make (`needs_admin_token` names them; their requests would refuse that token), and makes them when the admin asks later. The API reference page calls it before the first Execute; examples that change or delete a row work once.",
    tag: 'Sandbox',
    auth: 'control',
    // Like every control POST it takes a JSON Content-Type; the body is empty, {} or names a client.
    body: z
      .strictObject({
        client_id: z
          .string()
          .min(1)
          .optional()
          .describe(
            "With the admin token: make the rows in this client's tenant (a docs visitor's, whose page sends it), the admin's rows among them. With a tenant's token only a client of its own organization.",
          ),
      })
      .meta({ id: 'SandboxExampleRowsRequest' }),
    bodyOptional: true,
    produces: ['application/json'],
    responses: {
      200: { description: 'The tenant, and whether its rows were made now.', schema: made, contentTypes: ['application/json'] },
      404: errorResponse("No client with that client_id (in the organization of the token, with a tenant's token) (10002, pointer /client_id)."),
      422: errorResponse("The tenant has no shop (it deleted every one), or the default client's organization was deleted: nothing is made (10008)."),
    },
    handler: async (ctx, { body }) => {
      const { services, principal } = ctx;
      const named = body?.client_id === undefined ? undefined : tenantOf(services, body.client_id, principal?.organizationId);
      const own = (organizationId: string, clientId: string) => ({
        organizationId,
        clientId,
        clientSecret: '',
        shopId: firstShop(services.store, organizationId),
      });
      const tenant = principal
        ? own(principal.organizationId, principal.clientId)
        : named
          ? own(named.organizationId, named.client.id)
          : defaultTenant(services.store);
      refuseWithoutShop(services.store, tenant.organizationId, principal ? 'token' : named ? 'client_id' : 'default');
      // A tenant's own token makes what it could make by itself: the admin's rows wait for the admin.
      return plainJson(await prepareExamples(services, tenantExampleIds(services, tenant), principal === undefined));
    },
  }),
];
