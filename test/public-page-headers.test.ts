/**
 * The HTML pages anyone opens with a capability URL (tracking page, return portal, payment page)
 * tell the browser to run nothing, to refuse being framed by another site, and to send no
 * Referer carrying the capability; and a shop name a tenant chose reaches them as text only.
 */
import { describe, expect, it } from 'vitest';
import { BASE, testSandbox, type TestSandbox } from './support/app.js';
import { world } from './support/shipments.js';
import { publicPages } from './support/public-pages.js';

const HOSTILE = `"><script>alert(1)</script></style>\u2028<a href="javascript:alert(2)">x</a>`;

/** A shop named HOSTILE with a registered shipment and an open return payment: the paths of its three pages. */
async function pages(sandbox: TestSandbox): Promise<{ tracking: string; portal: string; payment: string }> {
  const w = await world(sandbox);
  const shop = w.shopIn('NL');
  const renamed = await sandbox.request('PATCH', `/shops/${shop.id}`, {
    token: w.token,
    body: {
      data: { type: 'shops', id: shop.id, attributes: { name: HOSTILE }, relationships: { organization: { data: shop.relationships.organization.data } } },
    },
  });
  expect(renamed.status, renamed.text).toBe(200);
  const { tracking, portal, payment } = await publicPages(sandbox, w, shop);
  return { tracking, portal, payment };
}

function expectLockedDown(answer: Response, what: string) {
  expect(answer.status, what).toBe(200);
  expect(answer.headers.get('content-type'), what).toBe('text/html; charset=UTF-8');
  const csp = answer.headers.get('content-security-policy') ?? '';
  expect(csp, what).toContain("default-src 'none'");
  expect(csp, what).toContain("frame-ancestors 'none'");
  expect(csp, what).not.toContain('script-src');
  expect(answer.headers.get('x-frame-options'), what).toBe('DENY');
  expect(answer.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(answer.headers.get('referrer-policy'), what).toBe('no-referrer');
  expect(answer.headers.get('cache-control'), what).toBe('no-store');
}

describe('public HTML pages', () => {
  it('forbid scripts, framing and Referer, and show a hostile shop name as text', async () => {
    const sandbox = await testSandbox();
    const { tracking, portal, payment } = await pages(sandbox);
    for (const path of [tracking, portal, payment]) {
      const answer = await sandbox.app.request(BASE + path);
      expectLockedDown(answer, path);
      const html = await answer.text();
      expect(html, path).toContain('&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;&#60;/style&#62;');
      expect(html, path).not.toContain('<script');
      expect(html, path).not.toContain('<a href');
    }
    // The page a button of the payment page answers with is the same page, locked down the same way.
    const pressed = await sandbox.app.request(BASE + payment, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'outcome=cancelled',
    });
    expectLockedDown(pressed, `POST ${payment}`);
  });
});
