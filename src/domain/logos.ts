import type { Libraries } from './libraries.js';
import { z } from 'zod';
import { DomainError, within, type Field } from './errors.js';
import type { Tx } from '../store/store.js';

/** The image types a shop logo may have; anything else is refused before the bytes are looked at. */
export const logoMimeTypes = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/svg+xml'] as const;
type LogoMimeType = (typeof logoMimeTypes)[number];

/**
 * `meta.logo` of a shop or organization request, a broker's `logo`. Closed, as production's Image
 * is: an unknown member (a misspelt `content`) is a 400, not dropped.
 */
export const logoUpload = z
  .strictObject({
    mime_type: z
      .string()
      .min(1)
      .describe(`MIME type of the image: ${logoMimeTypes.join(', ')}.`),
    contents: z.string().min(1).meta({ description: 'The file contents, base64 encoded (standard alphabet, padded).', contentEncoding: 'base64' }),
  })
  .meta({ id: 'LogoUpload' });
export type LogoUpload = z.infer<typeof logoUpload>;

/** A logo that passed every check, ready to store. */
export interface DecodedLogo {
  mimeType: LogoMimeType;
  bytes: Buffer;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * Strict base64: Node's own decoder skips any character it does not know, so garbage would
 * "decode" to some bytes. Line breaks are allowed because many encoders wrap their output.
 */
function decodeBase64(contents: string, field: Field): Buffer {
  const compact = contents.replace(/[\r\n\t ]/g, '');
  if (BASE64.test(compact)) return Buffer.from(compact, 'base64');
  const hint = /^data:/i.test(compact) ? ' Send only the base64 part, without the data: URL prefix.' : '';
  throw DomainError.invalid(`'contents' is not valid base64 (standard alphabet, padded with '=').${hint}`, field);
}

/** What the bytes really are, judged by their content, or `undefined` when not a supported image. */
async function sniff(bytes: Buffer, libraries: Libraries): Promise<string | undefined> {
  // Loaded on the first upload: neither library is needed to start.
  const { fileTypeFromBuffer, isSvg } = await libraries.imageSniffers();
  const detected = await fileTypeFromBuffer(bytes);
  // An animated PNG is still a PNG to anyone who declared image/png.
  if (detected) return detected.mime === 'image/apng' ? 'image/png' : detected.mime;
  // SVG is text, which file-type does not look into; is-svg parses it as XML.
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  return isSvg(text) ? 'image/svg+xml' : undefined;
}

/**
 * Checks an uploaded logo: base64 (400), a supported type (422), the size limit on the decoded
 * bytes (422), and bytes that really are the declared type (422). `field` is where `meta.logo` was sent.
 */
export async function decodeLogo(upload: LogoUpload, maxBytes: number, field: Field, libraries: Libraries): Promise<DecodedLogo> {
  const bytes = decodeBase64(upload.contents, within(field, 'contents'));
  const mimeType = upload.mime_type.split(';')[0]!.trim().toLowerCase();
  if (!(logoMimeTypes as readonly string[]).includes(mimeType)) {
    throw DomainError.unprocessable(
      `Logos of type '${upload.mime_type}' are not supported; use one of: ${logoMimeTypes.join(', ')}.`,
      within(field, 'mime_type'),
    );
  }
  if (bytes.length > maxBytes) {
    throw DomainError.unprocessable(
      `The logo is ${bytes.length} bytes; the largest logo accepted is ${maxBytes} bytes (after base64 decoding).`,
      within(field, 'contents'),
    );
  }
  const actual = await sniff(bytes, libraries);
  if (actual !== mimeType) {
    const found = actual ? ` (they look like ${actual})` : '';
    throw DomainError.unprocessable(`The logo contents are not ${mimeType}, the type 'mime_type' declares${found}.`, within(field, 'contents'));
  }
  return { mimeType: mimeType as LogoMimeType, bytes };
}

/** Stores a checked logo for `shopId` and returns its id: a public id, since anyone may fetch a logo by it. */
export function insertLogo(tx: Tx, shopId: string, logo: DecodedLogo, now: number): string {
  const id = tx.newPublicId();
  tx.insert('logos', { id, shop_id: shopId, mime_type: logo.mimeType, data: logo.bytes.toString('base64'), size: logo.bytes.length, created_at: now });
  return id;
}

/** Path at which a stored logo is served. */
export const logoPath = (logoId: string): string => `/logos/${logoId}`;
