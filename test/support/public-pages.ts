import { expect } from 'vitest';
import { TEST_NOW, type Json, type TestSandbox } from './app.js';
import { createShipment, shipmentBody, type World } from './shipments.js';
import { returnBody, returnsWorld } from '../returns/support.js';

const pathOf = (url: string) => new URL(url).pathname;

/** What the public pages of a shop show, and the paths the API hands out for them. */
export interface PublicPages {
  /** The registered shipment (its tracking page). */
  registered: Json;
  /** The returns client's token, the return with an open payment and its signed checkout URL. */
  returnsToken: string;
  returnId: string;
  checkout: URL;
  /** The shop as read back (its return portal URL, its logo URL). */
  shop: Json;
  tracking: string;
  portal: string;
  /** The payment page the checkout URL leads to. */
  payment: string;
}

/**
 * A registered shipment of `shop` and a return of one of its orders with a payment asked for: the
 * rows behind the three pages anyone opens with a capability URL (tracking page, return portal,
 * payment page).
 */
export async function publicPages(sandbox: TestSandbox, w: World, shop: Json): Promise<PublicPages> {
  const service = w.service('postnl-parcel-standard', 'NL');
  const shipment = await createShipment(
    sandbox,
    w.token,
    shipmentBody({ shop, service, contract: w.contractFor(service), attributes: { register_at: TEST_NOW } }),
  );
  await sandbox.advance(10);
  const registered = (await sandbox.get(`/shipments/${shipment.id}`, w.token)).body.data;
  expect(registered.attributes.tracking_code).toBeDefined();

  const r = await returnsWorld(sandbox);
  const order = (await r.orders(shop.id))[1];
  const method = await r.method(shop.id, 'Return label (PostNL)');
  const items = [{ id: order.attributes.items[0].id, quantity: 1, reason: { code: 'changed-mind' } }];
  const created = await sandbox.request('POST', '/returns/v1/returns', { token: r.token, body: returnBody({ shop, order, method, items }) });
  expect(created.status, created.text).toBe(201);
  const returnId = created.body.data.id as string;
  const ask = await sandbox.request('POST', `/returns/v1/returns/${returnId}/request-payment`, {
    token: r.token,
    body: { data: { return_payment: { amount: 495, currency: 'EUR' } } },
  });
  expect(ask.status, ask.text).toBe(204);
  const checkout = new URL((await sandbox.get(`/returns/v1/returns/${returnId}`, r.token)).body.data.attributes.payment.checkout_url as string);
  const redirect = await sandbox.request('GET', checkout.pathname + checkout.search, { token: r.token });
  expect(redirect.status, redirect.text).toBe(302);
  const shopRead = (await sandbox.get(`/shops/${shop.id}`, w.token)).body.data;
  return {
    registered,
    returnsToken: r.token,
    returnId,
    checkout,
    shop: shopRead,
    tracking: pathOf(registered.attributes.tracking_page_url),
    portal: pathOf(shopRead.attributes.return_portal_url),
    payment: pathOf(redirect.headers.get('location')!),
  };
}
