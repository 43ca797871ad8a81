import { readFileSync } from 'node:fs';
import { allEndpoints } from '../src/app.js';

/**
 * The README's list of production operations the sandbox serves and the ones it does not,
 * derived from the endpoint declarations and production's contract (reference/), so it cannot
 * drift: test/readme-coverage.test.ts compares it with the README.
 */

export const START = '<!-- production-operations:start (npm run readme:coverage) -->';
export const END = '<!-- production-operations:end -->';

const BROKER = "broker-level: the admin token (`SANDBOX_ADMIN_TOKEN`) acts as the broker; a client's token is 403";
const OWN = "a client's own organization; the admin token any";

/** What a served operation does differently from production, where it does. */
const notes: Record<string, string> = {
  'GET /shipments': "`filter[tags]` too (seed); `include=manifest` embeds the manifest, though production's schema lists no manifests among the included types",
  'GET /shipments/{shipment_id}': "`include=manifest` embeds the manifest, though production's schema lists no manifests among the included types",
  'POST /shipments': '`tags` may be numbers too (seed), answered as strings',
  'POST /registered-shipments': '`meta.collection` names a collection the shop already has (none is planned on the side)',
  'POST /multi-colli-shipments': 'colli have no price of their own: the master is priced for the whole weight; at most 50 colli in one request',
  'POST /update-shipment-status': 'carrier statuses joining the current status: at most 100 on one shipment-status (422 beyond; production states no bound)',
  'POST /combine-files': 'without `page_size`, each document keeps its own size (`original`)',
  'GET /carrier-surcharges': "for the carriers of the organization's contracts",
  'POST /shipment-surcharges':
    "on a shipment with a price, in its currency; the shipment's price grows by the fee and keeps it when computed again; a fee's amount is at most 2147483647 either way",
  'PATCH /shipment-surcharges/{shipment_surcharge_id}': 'surcharges added by hand only (a computed one is 403/10013); it stays on its shipment',
  'DELETE /shipment-surcharges/{shipment_surcharge_id}': 'surcharges added by hand only (a computed one is 403/10013)',
  'POST /shipping/v2/available-delivery-dates': "the windows are the sandbox carrier's plan on the sandbox clock",
  'POST /organizations': BROKER,
  'PATCH /organizations/{organization_id}': OWN,
  'DELETE /organizations/{organization_id}': `${OWN}; refused while it has shipments`,
  'GET /organizations/{organization_id}/contracts': OWN,
  'POST /organizations/{organization_id}/relationships/contracts': BROKER,
  'DELETE /organizations/{organization_id}/relationships/contracts': BROKER,
  'POST /brokers': `${BROKER}; enterprises are not emulated`,
  'PATCH /brokers/{broker_id}': BROKER,
  'POST /brokers/{broker_id}/relationships/carriers': BROKER,
  'DELETE /brokers/{broker_id}/relationships/carriers': BROKER,
  'POST /contracts/v1/templates': BROKER,
  'DELETE /contracts/v1/templates/{contract_template_id}': BROKER,
  'GET /zones': "the sandbox's zones (those of its services) are read-only; zones made through the API are their organization's",
  'GET /locales/v1/locales': 'a locale has no URL of its own, and no `links`, as in production',
  'POST /suggest-address': 'from a seeded table of streets in NL, BE, DE, FR and GB',
  'POST /suggest-hscode': 'from a seeded table of common web-shop goods',
  'POST /calculate-landed-costs': 'seeded duty and VAT rates for imports into NL, BE, DE, FR, GB, US, CH and NO; seeded exchange rates',
  'GET /statuses': 'collection statuses answer `resource_type: shipments` (production has no `collections` value)',
  'GET /carriers/{carrier_id}/collection-time-slots': 'slots follow a fixed calendar per carrier, in UTC',
  'POST /collection-schedules': 'books the collections of the next 8 days, topped up daily at 00:00 UTC',
  'POST /manifests': 'an owner is a shop or the organization (a broker owner is a 422)',
  'GET /carriers': '`logo_url` points at an SVG badge the sandbox draws',
  'GET /returns/v1/reasons': 'reasons (and questions) belong to the organization, seeded with a default set',
  'GET /returns/v1/returns': "a to-one `tags`, as production declares it: the first of the return's tags",
  'GET /returns/v1/returns/{return_id}': "a to-one `tags`, as production declares it: the first of the return's tags",
  'GET /returns/v1/returns/{return_id}/payment-checkout-url/{payment_id}?hmac={hmac}':
    "redirects to the sandbox's payment page; signed with the public sandbox key",
  'POST /returns/v1/returns/{return_id}/request-recovery-shipment': 'signed with the public sandbox key `parcel-sandbox-returns`',
  'GET /returns/v1/demo-orders': 'demo orders are the orders the order look-up finds; their id is their reference',
};

/**
 * Why production's operations that the sandbox does not serve are left out, by first path segment.
 * Served operations leave this list by themselves (the block is generated from the declarations).
 */
const notServed: Record<string, string> = {
  '/carriers': 'collection time slots: not emulated yet (collections)',
  '/collections': 'collection files: not emulated yet (manifests)',
  '/collection-schedules': 'not emulated yet (collections)',
  '/manifests': 'not emulated yet',
  '/add-shipments-to-collection': 'not emulated yet (collections)',
  '/create-manifest-for-collection': 'not emulated yet (manifests)',
  '/returns': 'not emulated yet (returns)',
  '/orders': "a marketplace's orders, for the return portal: not emulated",
  '/registered-shipments': 'not emulated yet (shipments)',
  '/multi-colli-shipments': 'not emulated yet (shipments)',
  '/consolidate-shipments': 'not emulated yet (shipments)',
  '/combine-files': 'not emulated yet (shipments)',
  '/shipping': 'delivery dates: not emulated yet',
  '/track-external-shipment': 'asks a carrier about a shipment registered elsewhere: no carrier stands behind the sandbox',
  '/get-carrier-status-categories': 'not emulated yet',
  '/carrier-surcharges': "finance.manage: the platform's own administration of carrier surcharges",
  '/invoices': 'finance.manage: billing',
  '/rate-imports': 'rate sheets uploaded as spreadsheets; the sandbox takes rates through POST and PATCH /service-rates',
  '/download-rates-template': 'spreadsheet rate sheets (see /rate-imports)',
  '/request-rates-template': 'spreadsheet rate sheets (see /rate-imports)',
  '/reports': 'CSV exports of the web application',
  '/count-report-entries': 'CSV exports of the web application',
  '/enterprises': 'the level above brokers; every broker names a stable enterprise id',
  '/clients': "OAuth client administration of the web application's users; sandbox clients come from the seed and POST /_sandbox/tenants",
  '/users': 'user accounts of the web application: the API authenticates OAuth clients, not users',
  '/scopes': 'user accounts of the web application',
  '/password-resets': 'user accounts of the web application',
  '/onboarding': 'invitations of new users to the web application',
  '/export-login-attempts': 'user accounts of the web application',
  '/payments': 'connections to payment providers, made through their own sign-in pages',
  '/marketplaces': 'connections to marketplaces, made through their own sign-in pages',
  '/wms': 'connections to warehouse systems, made through their own sign-in pages',
};

const contract = JSON.parse(readFileSync(new URL('../reference/production-contract.json', import.meta.url), 'utf8')) as {
  operations: Record<string, unknown>;
};

/**
 * First path segments of the web application's own administration (its users, clients, billing,
 * reports, invitations, notices, connections made through other sign-in pages): not what an
 * integration calls. Every other operation is integrator-facing.
 */
export const WEB_APPLICATION = new Set([
  '/clients',
  '/count-report-entries',
  '/download-rates-template',
  '/enterprises',
  '/export-login-attempts',
  '/invoices',
  '/marketplaces',
  '/onboarding',
  '/password-resets',
  '/payments',
  '/rate-imports',
  '/reports',
  '/request-rates-template',
  '/scopes',
  '/system-messages',
  '/users',
  '/wms',
]);

/** Whether production's operation `METHOD /path` is one an integration calls (not the web application's own). */
export const integratorFacing = (key: string): boolean => !WEB_APPLICATION.has('/' + key.split(' ')[1]!.split('/')[1]);

// Production writes one path with its query (`...{payment_id}?hmac={hmac}`): the path alone names the operation.
const normalize = (key: string) => key.replace(/\?.*$/, '').replace(/\{[^}]+\}/g, '{}');

/** The markdown between the README's markers. */
export function coverageMarkdown(): string {
  const served = new Set(allEndpoints().map((endpoint) => normalize(`${endpoint.method.toUpperCase()} ${endpoint.path}`)));
  const operations = Object.keys(contract.operations);
  const yes = operations.filter((key) => served.has(normalize(key)));
  const no = operations.filter((key) => !served.has(normalize(key)));
  const groups = new Map<string, number>();
  for (const key of no) {
    const segment = '/' + key.split(' ')[1]!.split('/')[1];
    groups.set(segment, (groups.get(segment) ?? 0) + 1);
  }
  const integrator = operations.filter(integratorFacing);
  const lines = [
    START,
    `Production publishes ${operations.length} operations, ${integrator.length} of them integrator-facing (the others are the web application's own`,
    `administration, below); the sandbox serves ${integrator.filter((key) => served.has(normalize(key))).length} of the ${integrator.length}, ${yes.length} in all, in production's shapes`,
    "(its query parameters, include paths and response members) and with production's scopes, the seed's where it names",
    'them (see Default credentials).',
    '',
    '| served operation | difference from production |',
    '|---|---|',
    ...yes.map((key) => `| \`${key}\` | ${notes[key] ?? ''} |`),
    '',
    `Not served (${no.length}), by first path segment, and why:`,
    '',
    '| path | operations | why not |',
    '|---|---|---|',
    ...[...groups].map(([segment, count]) => `| \`${segment}\` | ${count} | ${notServed[segment] ?? 'not emulated yet'} |`),
    END,
  ];
  return lines.join('\n');
}

/** The README with its coverage block replaced by the current one. */
export function withCoverage(readme: string): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md needs the markers ${START} and ${END}`);
  return readme.slice(0, start) + coverageMarkdown() + readme.slice(end + END.length);
}
