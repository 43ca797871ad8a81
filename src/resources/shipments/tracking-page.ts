import { z } from 'zod';
import { endpoint } from '../../http/endpoint.js';
import { publicPage } from '../../http/public-page.js';
import { ApiError } from '../../jsonapi/errors.js';
import type { Rules } from '../../domain/rules.js';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const when = (seconds: number) => new Date(seconds * 1000).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';

/** The path of a shipment's tracking page (its `tracking_page_url`): the shipment's capability, signed with this sandbox's secret. */
export const trackingPagePath = (rules: Rules, shipmentId: string) => `/tracking/${rules.capabilities.token('tracking-page', shipmentId)}`;

/**
 * The branded tracking page that `tracking_page_url` points at: public, like a carrier's, and
 * showing no more than a carrier's would (status history, destination city). It opens with the
 * shipment's capability, not the tracking code: codes are short enough to be tried one after
 * another, and a tenant may choose one (an outside shipment's) that is another's.
 */
export const trackingPageEndpoints = [
  endpoint({
    method: 'get',
    path: '/tracking/{tracking_token}',
    operationId: 'getTrackingPage',
    summary: 'Public tracking page of a shipment',
    description:
      "The page a registered shipment's `tracking_page_url` points at. No token is needed, so `tracking_token` is the shipment id with an HMAC-SHA256 of it under a secret of this sandbox (kept in the key file beside the data file, made at start in memory): a tracking code, a shipment id alone, or a token of another sandbox is 404 like a shipment that does not exist.",
    tag: 'Shipments',
    auth: 'none',
    params: z.object({ tracking_token: z.string() }),
    produces: ['text/html'],
    responses: {
      200: { description: 'An HTML page with the status history.', contentTypes: ['text/html'] },
      404: { description: 'The token is not one this sandbox made, or its shipment is gone or has no tracking code (10002).' },
    },
    handler: (ctx, { params }) => {
      const { store } = ctx;
      const shipmentId = ctx.rules.capabilities.open('tracking-page', params.tracking_token);
      const shipment = shipmentId === undefined ? undefined : store.get('shipments', shipmentId);
      if (!shipment?.tracking_code)
        throw ApiError.of('resourceNotFound', 'No tracking page is at this address: the link is incomplete, was changed, or is not from this sandbox.');
      const code = shipment.tracking_code;
      const shop = store.get('shops', shipment.shop_id);
      const colors = shop?.branding?.tracking;
      const history = store
        .find('shipmentStatuses', 'shipment_id', shipment.id)
        .map((row) => ({ at: row.created_at, status: store.get('statuses', row.status_id) }))
        .reverse()
        .map(({ at, status }) => `<li><time>${when(at)}</time> <strong>${escape(status?.name ?? '')}</strong><br>${escape(status?.description ?? '')}</li>`)
        .join('\n');
      const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tracking ${escape(code)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;color:${escape(colors?.foreground_color ?? '#222')};background:${escape(colors?.background_color ?? '#fff')}}h1{color:${escape(colors?.primary_color ?? '#0b5')}}li{margin:.6rem 0}</style></head>
<body><h1>${escape(shop?.name ?? 'Your parcel')}</h1>
<p>Tracking code <code>${escape(code)}</code>, to ${escape(shipment.recipient_address.city)} (${escape(shipment.recipient_address.country_code)}).</p>
<ol reversed>${history}</ol><p><small>parcel-sandbox: not a real shipment.</small></p></body></html>`;
      return publicPage(html);
    },
  }),
];
