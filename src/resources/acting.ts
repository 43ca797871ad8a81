import { ApiError } from '../jsonapi/errors.js';

/*
 * Broker-level operations. Every client of the sandbox belongs to an organization, and no seeded
 * client acts for a broker, so what production keeps for a broker's own users (creating
 * organizations, sharing contracts with them, changing a broker, its carriers and its contract
 * templates) is done with the sandbox's admin token: SANDBOX_ADMIN_TOKEN as a bearer token, or no
 * token on a sandbox that has none (as for the sandbox controls). The handler of such a request
 * has no principal. A tenant's access token is checked for production's scope first (403/14004
 * without it) and then refused (403/10013): it acts for its own organization only.
 */

/** 403/10013 for a tenant's token on what only the broker may do. */
export function brokerOnly(action: string): ApiError {
  return ApiError.of(
    'actionNotAllowed',
    `${action} is up to the broker, and the sandbox's clients act for an organization: send the admin token (SANDBOX_ADMIN_TOKEN) as the bearer token, or no token on a sandbox without one.`,
    { source: { header: 'Authorization' } },
  );
}

/** What the endpoint descriptions say about who may call a broker-level operation. */
export const BROKER_ONLY = "Broker-level: a tenant's access token is refused with 403 (10013), also one that holds the scope.";
