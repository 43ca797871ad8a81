import { z } from 'zod';
import { logoMimeTypes } from '../../domain/logos.js';
import { endpoint } from '../../http/endpoint.js';
import { negotiate } from '../../http/media.js';
import { findOr404 } from '../lookup.js';

/**
 * Serves uploaded shop logos. No token is needed: logos are shown on public pages (branded
 * tracking, returns portal), and their ids are random UUIDs (CSPRNG), whatever the seed.
 */
export const logoEndpoints = [
  endpoint({
    method: 'get',
    path: '/logos/{logo_id}',
    operationId: 'getLogo',
    summary: 'Download a shop logo',
    description: 'The image uploaded as `meta.logo` of a shop, at the URL given as its `logo_url`.',
    tag: 'Shops',
    auth: 'none',
    params: z.object({ logo_id: z.string() }),
    produces: logoMimeTypes,
    headers: z.object({ Accept: z.string().optional().describe("Must allow the logo's own image type.") }),
    responses: { 200: { description: 'The logo, byte for byte as uploaded.', contentTypes: logoMimeTypes } },
    handler: (ctx, { params, headers }) => {
      const logo = findOr404(ctx, 'logos', 'logos', params.logo_id);
      // The route accepts any image type; this logo has one, and the client must accept that one.
      negotiate(headers.Accept, [logo.mime_type]);
      const bytes = Buffer.from(logo.data, 'base64');
      return new Response(bytes, {
        headers: {
          'content-type': logo.mime_type,
          'content-length': String(bytes.length),
          // A new upload gets a new id, so the bytes at one URL never change.
          'cache-control': 'public, max-age=31536000, immutable',
          'x-content-type-options': 'nosniff',
          // SVG can carry scripts; opened directly, it must not run any.
          'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
        },
      });
    },
  }),
];
