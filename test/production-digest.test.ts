import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DIGEST_FILE, digestSource } from '../scripts/production-digest.js';
import { PRODUCTION_DEPRECATIONS, PRODUCTION_OPERATIONS } from '../src/fixtures/reference/production-operations.js';

describe("the digest of production's contract the sandbox runs with", () => {
  it('is what reference/production-contract.json says (npm run production:digest writes it)', async () => {
    expect(readFileSync(DIGEST_FILE, 'utf8')).toBe(await digestSource());
  });

  it("names production's operations and where each deprecated thing is used", () => {
    expect(PRODUCTION_OPERATIONS).toHaveLength(225);
    const ids = PRODUCTION_DEPRECATIONS.map((deprecation) => deprecation.id);
    expect(ids).toContain('carriers.label_mime_types');
    expect(ids).toContain('GET /shipments filter[date_from]');
    // An attribute production only answers with is deprecated, but no request uses it.
    expect(PRODUCTION_DEPRECATIONS.find((deprecation) => deprecation.id === 'carriers.label_mime_types')!.uses).toEqual([]);
    expect(PRODUCTION_DEPRECATIONS.find((deprecation) => deprecation.id === 'shops.style')!.uses.map((use) => use.operation)).toEqual([
      'POST /shops',
      'PATCH /shops/{shop_id}',
    ]);
  });
});
