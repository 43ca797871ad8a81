import { z } from 'zod';
import { defaultClients } from '../fixtures/clients.js';
import { endpoint } from '../http/endpoint.js';
import { ApiError } from '../jsonapi/errors.js';
import { VERSION } from '../version.js';
import { scopes } from '../model/tenancy.js';
import { asset, assetHref, assetMediaTypes, assetNames } from './assets.js';
import { encodedResponse } from './encoded.js';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** JSON for a `<script type="application/json">` block: nothing in it can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** The client the page prefills: the documented default, which holds every scope. */
const defaultClient = defaultClients[0];

/**
 * Everything the page loads comes from this sandbox: scripts, styles and images from
 * `/docs/assets/`, the document and try-it-out calls from the sandbox's origin (and its public
 * URL, which the document's `servers` and token URL name when one is configured).
 */
function contentSecurityPolicy(apiOrigin: string): string {
  const connect = apiOrigin === '' ? "'self'" : `'self' ${apiOrigin}`;
  return [
    "default-src 'self'",
    "script-src 'self'",
    // Swagger UI (React) sets style attributes.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    `connect-src ${connect}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/**
 * The page. With `visitor` (a tenant per visitor) it prefills no shared client and asks for the
 * visitor's own tenant; in shared mode it prefills the default client without its secret, which
 * there is the operator's (auth/shared-secrets.ts), not the published one.
 */
function page(mode: 'visitor' | 'shared' | 'local'): string {
  const common = { specUrl: 'openapi.json', examplesUrl: '_sandbox/examples', scopes: [...scopes] };
  const config =
    mode === 'visitor'
      ? { ...common, clientId: '', clientSecret: '', visitorUrl: '_sandbox/visitor' }
      : { ...common, clientId: defaultClient.id, clientSecret: mode === 'shared' ? '' : defaultClient.secret };
  const hint =
    mode === 'visitor'
      ? 'A sandbox tenant of your own is made for this tab: try-it-out never touches data others see.'
      : mode === 'shared'
        ? "This is a shared sandbox: the seeded clients' secrets are its operator's (the start banner prints them), not the published ones."
        : 'or use <em>Authorize</em> below (OAuth2 client credentials, prefilled).';
  // Links are relative to /docs, so the page also works behind a proxy that adds a path prefix.
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>parcel-sandbox API reference</title>
<link rel="icon" type="image/png" sizes="32x32" href="${assetHref('favicon-32x32.png')}">
<link rel="icon" type="image/png" sizes="16x16" href="${assetHref('favicon-16x16.png')}">
<link rel="preload" href="openapi.json" as="fetch" crossorigin="anonymous">
<link rel="stylesheet" href="${assetHref('swagger-ui.css')}">
<link rel="stylesheet" href="${assetHref('docs.css')}">
</head>
<body>
<header class="sandbox-bar">
  <h1>parcel-sandbox <small>${escape(VERSION)} &middot; API reference &middot; <a href="openapi.json">openapi.json</a></small></h1>
  <form id="sandbox-token" autocomplete="off">
    <label>client_id <input name="client_id" value="${escape(config.clientId)}" spellcheck="false"></label>
    <label>client_secret <input name="client_secret" value="${escape(config.clientSecret)}" spellcheck="false"></label>
    <button type="submit">Get sandbox token</button>
    <span class="hint">${hint}</span>
    <output id="sandbox-token-status" aria-live="polite"></output>
  </form>
</header>
<noscript><p>This page needs JavaScript. The API description itself is at <a href="openapi.json">/openapi.json</a>.</p></noscript>
<main id="swagger-ui"></main>
<script type="application/json" id="docs-config">${scriptJson(config)}</script>
<script src="${assetHref('swagger-ui-bundle.js')}"></script>
<script src="${assetHref('docs.js')}"></script>
</body>
</html>
`;
}

/**
 * `/docs`: an API reference with try-it-out, rendered by Swagger UI (swagger-ui-dist, served
 * from the sandbox itself; no CDN) from the sandbox's own `/openapi.json`.
 */
export const docsEndpoints = [
  endpoint({
    method: 'get',
    path: '/docs',
    operationId: 'getApiReference',
    summary: 'API reference with try-it-out (HTML)',
    description:
      "Swagger UI on this sandbox's `/openapi.json`. \"Get sandbox token\" (or Authorize, prefilled with `sandbox-client` / `sandbox-secret`; in shared mode without the secret, which there is the operator's) fetches a client-credentials token from `/access-token`; every Execute then calls this sandbox with it. With `--tenant-per-visitor` the page prefills no shared client: it asks `POST /_sandbox/visitor` for a short-lived tenant of the visitor's own and authorizes try-it-out with its token. All scripts and styles are served from `/docs/assets/`.",
    tag: 'Sandbox',
    auth: 'none',
    produces: ['text/html'],
    responses: {
      200: { description: 'The API reference page.', contentTypes: ['text/html'] },
      301: { description: '`/docs/` (with a slash) redirects to `/docs`.' },
    },
    handler: (ctx) => {
      // The app is not strict about trailing slashes, but the page's links are relative to /docs:
      // served at /docs/ they would point under /docs/docs/. A relative Location keeps a path
      // prefix that a proxy adds.
      if (ctx.requestUrl.pathname.endsWith('/')) return new Response(null, { status: 301, headers: { location: '../docs' } });
      const apiOrigin = new URL(ctx.url('/')).origin;
      return new Response(page(ctx.settings.tenantPerVisitor ? 'visitor' : ctx.settings.shared ? 'shared' : 'local'), {
        headers: {
          'content-type': 'text/html; charset=UTF-8',
          'cache-control': 'no-cache',
          'content-security-policy': contentSecurityPolicy(apiOrigin === ctx.requestUrl.origin ? '' : apiOrigin),
          'x-content-type-options': 'nosniff',
          'referrer-policy': 'no-referrer',
        },
      });
    },
  }),
  endpoint({
    method: 'get',
    path: '/docs/assets/{file}',
    operationId: 'getApiReferenceAsset',
    summary: 'A script, style sheet or icon of the API reference page',
    description: `Serves only these files: ${assetNames.map((name) => `\`${name}\``).join(', ')}. Swagger UI's files come from the installed swagger-ui-dist package.`,
    tag: 'Sandbox',
    auth: 'none',
    params: z.object({ file: z.string() }),
    query: z.object({
      v: z.string().optional().describe('Content version, as the page links it; a matching one makes the answer cacheable for a year.'),
    }),
    produces: assetMediaTypes,
    headers: z.object({
      'If-None-Match': z.string().optional().describe('An ETag this answer gave: 304 when the file has not changed.'),
      'Accept-Encoding': z.string().optional().describe('br or gzip: scripts and style sheets are sent compressed (compressed once, kept).'),
    }),
    responses: {
      200: { description: 'The file.', contentTypes: assetMediaTypes },
      304: { description: 'Not modified (the `If-None-Match` ETag matches).' },
    },
    handler: (_ctx, { params, query, headers: request }) => {
      const found = asset(params.file);
      if (!found) {
        throw ApiError.of('resourceNotFound', `No API reference asset is called '${params.file}'. The assets are: ${assetNames.join(', ')}.`);
      }
      const headers = {
        'cache-control': query.v === found.version ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
        'x-content-type-options': 'nosniff',
      };
      return encodedResponse(found.body, { acceptEncoding: request['Accept-Encoding'], ifNoneMatch: request['If-None-Match'] }, headers);
    },
  }),
];
