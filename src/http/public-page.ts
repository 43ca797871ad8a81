/**
 * Headers of the HTML pages anyone opens with a capability in the URL (tracking page, return
 * portal, payment page). They hold no script and load nothing but their inline style, so the
 * policy allows nothing else: text a tenant wrote that slipped past escaping could run nothing.
 * No site may frame them (a framed payment page would let another site place its "Pay" button
 * under a click meant for something else), and no Referer carries the capability in the path to
 * wherever a link or a browser extension's request goes.
 */
export const PUBLIC_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=UTF-8',
  'content-security-policy': [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    "img-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; '),
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  // The page shows a payment's or a shipment's state as it is now; a shared cache keeping it would
  // show the stale state, and keep a capability's page for whoever asks that cache next.
  'cache-control': 'no-store',
};

/** An HTML page of a capability URL, with the headers above. */
export const publicPage = (html: string): Response => new Response(html, { headers: { ...PUBLIC_PAGE_HEADERS } });
