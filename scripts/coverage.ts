import { readFileSync } from 'node:fs';
import { allEndpoints } from '../src/app.js';

/**
 * The README's list of production operations the sandbox serves and the ones it does not,
 * derived from the endpoint declarations and production's contract (reference/), so it cannot
 * drift: test/readme-coverage.test.ts compares it with the README.
 */

export const START = '<!-- production-operations:start (npm run readme:coverage) -->';
export const END = '<!-- production-operations:end -->';

/** What a served operation does differently from production, where it does. */
const notes: Record<string, string> = {
  'GET /shipments': '`filter[tags]` too (seed); manifest is never set yet, so its include embeds nothing',
  'GET /shipments/{shipment_id}': 'manifest is never set yet, so its include embeds nothing',
  'POST /shipments': 'a request that repeats a running `Idempotency-Key` answers 409 (production: 423)',
  'POST /registered-shipments': '`meta.collection` names a collection the shop already has (none is planned on the side)',
  'POST /multi-colli-shipments': 'colli have no price of their own: the master is priced for the whole weight',
  'POST /combine-files': 'without `page_size`, each document keeps its own size (`original`)',
  'GET /carrier-surcharges': '`organizations.manage` in place of `finance.manage`; for the carriers of the organization\'s contracts',
  'POST /shipping/v2/available-delivery-dates': 'the windows are the sandbox carrier\'s plan on the sandbox clock',
  'GET /services': 'zones are not emulated: `zone_from`/`zone_to` stay empty',
  'GET /services/{service_id}': 'zones are not emulated: `zone_from`/`zone_to` stay empty',
  'GET /contracts': 'contract templates are not emulated: `contract_template` stays empty',
  'GET /statuses': 'collection statuses answer `resource_type: shipments` (production has no `collections` value)',
  'GET /collections': 'manifests are not emulated yet: `manifest` stays empty',
  'GET /carriers': '`logo_url` points at an SVG badge the sandbox draws',
};

const contract = JSON.parse(readFileSync(new URL('../reference/production-contract.json', import.meta.url), 'utf8')) as {
  operations: Record<string, unknown>;
};

const normalize = (key: string) => key.replace(/\{[^}]+\}/g, '{}');

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
  const lines = [
    START,
    `Production publishes ${operations.length} operations; the sandbox serves ${yes.length} of them, in production's shapes`,
    '(its query parameters, include paths and response members; scopes follow the seed: `organizations.manage`,',
    '`shipments.manage`, `shops.manage`).',
    '',
    '| served operation | difference from production |',
    '|---|---|',
    ...yes.map((key) => `| \`${key}\` | ${notes[key] ?? ''} |`),
    '',
    `Not served yet (${no.length}), by first path segment: ` +
      [...groups].map(([segment, count]) => `\`${segment}\` ${count}`).join(', ') +
      '.',
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
