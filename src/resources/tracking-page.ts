import { z } from 'zod';
import { endpoint } from '../http/endpoint.js';
import { ApiError } from '../jsonapi/errors.js';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const when = (seconds: number) => new Date(seconds * 1000).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';

/**
 * The branded tracking page that `tracking_page_url` points at: public, like a carrier's, and
 * showing no more than a carrier's would (status history, destination city).
 */
export const trackingPageEndpoints = [
  endpoint({
    method: 'get',
    path: '/tracking/{tracking_code}',
    operationId: 'getTrackingPage',
    summary: 'Public tracking page of a shipment',
    tag: 'Shipments',
    auth: 'none',
    params: z.object({ tracking_code: z.string() }),
    produces: ['text/html'],
    responses: { 200: { description: 'An HTML page with the status history.', contentTypes: ['text/html'] } },
    handler: (ctx, { params }) => {
      const { store } = ctx.services;
      const shipment = store.find('shipments', 'tracking_code', params.tracking_code)[0];
      if (!shipment) throw ApiError.of('resourceNotFound', `No shipment has the tracking code '${params.tracking_code}'.`);
      const shop = store.get('shops', shipment.shop_id);
      const colors = shop?.branding?.tracking;
      const history = store
        .find('shipmentStatuses', 'shipment_id', shipment.id)
        .map((row) => ({ at: row.created_at, status: store.get('statuses', row.status_id) }))
        .reverse()
        .map(({ at, status }) => `<li><time>${when(at)}</time> <strong>${escape(status?.name ?? '')}</strong><br>${escape(status?.description ?? '')}</li>`)
        .join('\n');
      const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Tracking ${escape(params.tracking_code)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;color:${escape(colors?.foreground_color ?? '#222')};background:${escape(colors?.background_color ?? '#fff')}}h1{color:${escape(colors?.primary_color ?? '#0b5')}}li{margin:.6rem 0}</style></head>
<body><h1>${escape(shop?.name ?? 'Your parcel')}</h1>
<p>Tracking code <code>${escape(params.tracking_code)}</code>, to ${escape(shipment.recipient_address.city)} (${escape(shipment.recipient_address.country_code)}).</p>
<ol reversed>${history}</ol><p><small>parcel-sandbox: not a real shipment.</small></p></body></html>`;
      return new Response(html, { headers: { 'content-type': 'text/html; charset=UTF-8' } });
    },
  }),
];
