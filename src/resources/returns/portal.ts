import { z } from 'zod';
import { paymentOfToken, settlePayment } from '../../domain/returns/payments.js';
import type { Rules } from '../../domain/rules.js';
import { DomainError } from '../../domain/errors.js';
import { endpoint } from '../../http/endpoint.js';
import { publicPage as html } from '../../http/public-page.js';

/** The path of a shop's return portal page (its `return_portal_url`): the shop's capability, signed with this sandbox's secret. */
export const returnPortalPath = (rules: Rules, shopId: string) => `/return-portal/${rules.capabilities.token('return-portal', shopId)}`;

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const money = (amount: number, currency: string) => `${(amount / 100).toFixed(2)} ${currency}`;

function page(title: string, color: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;color:#222}h1{color:${escape(color)}}button{margin-right:.5rem;padding:.4rem 1rem}</style></head>
<body>${body}<p><small>parcel-sandbox: not a real shop or payment.</small></p></body></html>`;
}

/** The payment page: amount, state, and the buttons while the payment is open. */
function paymentPage(rules: Rules, token: string): string {
  const { payment, row } = paymentOfToken(rules, token);
  const shop = rules.store.get('shops', row.shop_id);
  const open = payment.paid_at === undefined && row.payment_id === payment.id && row.status_code === 'return-payment-pending';
  const state =
    payment.paid_at !== undefined
      ? '<p><strong>Paid.</strong> Thank you: your return is approved.</p>'
      : open
        ? ''
        : '<p><strong>This payment is closed.</strong></p>';
  const button = (outcome: string, label: string) => `<button name="outcome" value="${outcome}">${label}</button>`;
  const buttons = open ? `<form method="post">${button('paid', 'Pay')}${button('cancelled', 'Cancel')}${button('failed', 'Fail the payment')}</form>` : '';
  const title = `<h1>${escape(shop?.name ?? 'Your return')}</h1><p>Return of order ${escape(row.order_reference)}: <strong>${money(payment.amount, payment.currency)}</strong></p>`;
  return page('Pay for your return', shop?.branding?.returns?.primary_color ?? '#0b5', `${title}${state}${buttons}`);
}

/**
 * What a consumer sees of the returns product without a token: the shop's return portal page
 * (`return_portal_url`) and the sandbox's payment page, where a checkout URL leads.
 */
export const portalEndpoints = [
  endpoint({
    method: 'get',
    path: '/return-portal/{portal_token}',
    operationId: 'getReturnPortal',
    summary: "A shop's return portal",
    description:
      "The page a shop's `return_portal_url` points at. No token is needed, so `portal_token` is the shop id with an HMAC-SHA256 of it under a secret of this sandbox (kept in the key file beside the data file, made at start in memory): the shop id alone, or a token of another sandbox, is 404 like a shop that does not exist. The sandbox serves a minimal page naming the shop; a portal of your own does the work through the API: look the order up, resolve the methods, create the return.",
    tag: 'Returns',
    auth: 'none',
    params: z.object({ portal_token: z.string() }),
    produces: ['text/html'],
    responses: {
      200: { description: 'An HTML page.', contentTypes: ['text/html'] },
      404: { description: 'The token is not one this sandbox made, or its shop is gone (10002).' },
    },
    handler: (ctx, { params }) => {
      const shopId = ctx.rules.capabilities.open('return-portal', params.portal_token);
      const shop = shopId === undefined ? undefined : ctx.store.get('shops', shopId);
      if (!shop) throw DomainError.notFound('No return portal is at this address: the link is incomplete, was changed, or is not from this sandbox.');
      const color = shop.branding?.returns?.primary_color ?? '#0b5';
      return html(
        page(
          `Returns - ${shop.name}`,
          color,
          `<h1>Return an order from ${escape(shop.name)}</h1><p>Enter your order number and e-mail address to return items.</p>` +
            '<p>This sandbox page stands in for the portal; a return portal calls <code>GET /orders/v1/orders/{reference}</code>, ' +
            '<code>POST /returns/v1/return-methods/resolve</code> and <code>POST /returns/v1/returns</code>.</p>',
        ),
      );
    },
  }),
  endpoint({
    method: 'get',
    path: '/return-portal/checkout/{checkout_token}',
    operationId: 'getReturnPaymentPage',
    summary: 'The payment page of a return',
    description:
      "Where a payment's `checkout_url` leads: the amount, and buttons to pay, cancel or let the payment fail (each a POST to the same URL). No token is needed, so `checkout_token` is the payment id (random, not from the seed) with an HMAC-SHA256 of it under a secret of this sandbox (kept in the key file beside the data file, made at start in memory), unlike the `hmac` of the checkout URL, which needs the shop's token anyway. A token this sandbox did not make is 404 like a payment that does not exist.",
    tag: 'Returns',
    auth: 'none',
    params: z.object({ checkout_token: z.string() }),
    produces: ['text/html'],
    responses: {
      200: { description: 'An HTML page.', contentTypes: ['text/html'] },
      404: { description: 'The token is not one this sandbox made, or its payment is gone (10002).' },
    },
    handler: (ctx, { params }) => html(paymentPage(ctx.rules, params.checkout_token)),
  }),
  endpoint({
    method: 'post',
    path: '/return-portal/checkout/{checkout_token}',
    operationId: 'settleReturnPayment',
    summary: 'Pay, cancel or fail a payment',
    description:
      '`outcome` `paid` (the default) approves the return (its return shipment follows as on approve); `cancelled` or `failed` make it `return-payment-failed`. Answers the page as it is then.',
    tag: 'Returns',
    auth: 'none',
    params: z.object({ checkout_token: z.string() }),
    body: z.object({ outcome: z.enum(['paid', 'cancelled', 'failed']).optional() }).meta({ id: 'ReturnPaymentOutcome' }),
    bodyFormat: 'json-or-form',
    bodyOptional: true,
    // `outcome=cancelled` from the page's form, or its JSON: a few bytes.
    maxBodyBytes: 1024,
    produces: ['text/html'],
    responses: {
      200: { description: 'The payment page after the outcome.', contentTypes: ['text/html'] },
      404: { description: 'The token is not one this sandbox made, or its payment is gone (10002); nothing is settled.' },
      422: { description: 'The payment was paid already or is no longer open (10008).' },
    },
    handler: async (ctx, { params, body }) => {
      const { payment, row } = paymentOfToken(ctx.rules, params.checkout_token);
      // On the clock of the return's organization, as its other changes.
      const tenant = ctx.rules.forTenant(row.organization_id);
      await tenant.store.transact((tx) => settlePayment(tx, tenant, row, payment, body?.outcome ?? 'paid'));
      return html(paymentPage(ctx.rules, params.checkout_token));
    },
  }),
];
