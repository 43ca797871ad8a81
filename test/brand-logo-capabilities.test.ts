/**
 * Carrier logos and broker badges open without a token (their URLs are shown on public pages). A
 * carrier a pack gave a tenant is that tenant's alone, and its code is the pack's choice, which
 * another tenant's pack may make too: its logo must name that tenant's carrier only, and no one may
 * find its name by trying codes. A broker's badge names the broker, whose id is no secret: it
 * opens by its capability only.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tenantWithToken, testSandbox, type Json, type TestSandbox } from './support/app.js';

/** A pack of one carrier (the failing-carrier pack's, renamed). */
function carrierPack(name: string, code: string): Json {
  const [carrier] = JSON.parse(readFileSync('fixtures/packs/failing-carrier/carriers.json', 'utf8')).carriers;
  return { carriers: [{ ...carrier, name, code }] };
}

/** The logo_url of the tenant's carrier with `code`, as GET /carriers answers it. */
async function logoUrl(sandbox: TestSandbox, token: string, code: string): Promise<string> {
  const carriers = (await sandbox.get('/carriers?page[size]=100', token)).body.data as Json[];
  return carriers.find((row) => row.attributes.code === code).attributes.logo_url;
}

describe('the logo of a carrier a pack gave a tenant', () => {
  it("shows that tenant's carrier, also where another tenant's pack chose the same code", async () => {
    const sandbox = await testSandbox();
    const first = await tenantWithToken(sandbox, { pack: carrierPack('Acme Private Logistics', 'acme-x') });
    const second = await tenantWithToken(sandbox, { pack: carrierPack('Bravo Parcels', 'acme-x') });
    const firstUrl = await logoUrl(sandbox, first.token, 'acme-x');
    const secondUrl = await logoUrl(sandbox, second.token, 'acme-x');
    expect(secondUrl).not.toBe(firstUrl);
    const firstLogo = await sandbox.request('GET', new URL(firstUrl).pathname);
    const secondLogo = await sandbox.request('GET', new URL(secondUrl).pathname);
    expect([firstLogo.status, secondLogo.status]).toEqual([200, 200]);
    expect(firstLogo.text).toContain('Acme Private Logistics');
    expect(secondLogo.text).toContain('Bravo Parcels');
    expect(secondLogo.text).not.toContain('Acme');
  });

  it('is not found by its code, nor by its id, nor by a token of its id signed for another page', async () => {
    const sandbox = await testSandbox();
    const made = await tenantWithToken(sandbox, { pack: carrierPack('Acme Private Logistics', 'acme-x') });
    const carrierId = made.made.body.keys.carriers['acme-x'];
    const byCode = await sandbox.request('GET', '/brand-logos/carrier-acme-x.svg');
    expect(byCode.status).toBe(404);
    expect(byCode.text).not.toContain('Acme');
    expect((await sandbox.request('GET', `/brand-logos/carrier-${carrierId}.svg`)).status).toBe(404);
    const otherPage = sandbox.services.rules.capabilities.token('tracking-page', carrierId);
    expect((await sandbox.request('GET', `/brand-logos/carrier-${otherPage}.svg`)).status).toBe(404);
    // The catalogue's carriers are still served by their code.
    expect((await sandbox.request('GET', '/brand-logos/carrier-postnl.svg')).text).toContain('PostNL');
  });
});

describe("a broker's badge", () => {
  it("opens at the URL the broker's organizations are given, never by the broker id", async () => {
    const sandbox = await testSandbox();
    const { made, token } = await tenantWithToken(sandbox, { pack: 'broker-three-organizations' });
    const brokerId = made.body.keys.brokers['parcel-partners'];
    const broker = await sandbox.get(`/brokers/${brokerId}`, token);
    expect(broker.status, broker.text).toBe(200);
    const badge = await sandbox.request('GET', new URL(broker.body.data.attributes.favicon_url).pathname);
    expect(badge.status).toBe(200);
    expect(badge.text).toContain('Parcel Partners');
    const byId = await sandbox.request('GET', `/brand-logos/broker-${brokerId}.svg`);
    expect(byId.status).toBe(404);
    expect(byId.text).not.toContain('Parcel Partners');
    const otherPage = sandbox.services.rules.capabilities.token('carrier-logo', brokerId);
    expect((await sandbox.request('GET', `/brand-logos/broker-${otherPage}.svg`)).status).toBe(404);
  });
});

describe('a badge of a name a tenant chose', () => {
  it('is a well-formed SVG that shows the name as text and runs nothing when opened directly', async () => {
    const sandbox = await testSandbox();
    const hostile = '</text><script>alert(1)</script>\u0001\u000b"Acme"';
    const { token } = await tenantWithToken(sandbox, { pack: carrierPack(hostile, 'acme-x') });
    const logo = await sandbox.request('GET', new URL(await logoUrl(sandbox, token, 'acme-x')).pathname);
    expect(logo.status, logo.text).toBe(200);
    expect(logo.headers.get('content-security-policy')).toContain('sandbox');
    expect(logo.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(logo.text).not.toContain('<script');
    expect(logo.text).toContain('&#60;/text&#62;&#60;script&#62;alert(1)&#60;/script&#62;\uFFFD\uFFFD&#34;Acme&#34;');
    // No character that XML 1.0 forbids: a parser would refuse the whole image.
    // eslint-disable-next-line no-control-regex -- these are the characters looked for
    expect(logo.text).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/);
  });
});
