// Compressed answers for the API reference's large, unchanging files: compressed once, kept.
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

type Encoding = 'br' | 'gzip';

/**
 * A body the sandbox serves many times unchanged (Swagger UI's bundle, 1.7 MB; the OpenAPI
 * document, about 1 MB): each encoding is made once, on first use, and kept. hono's `compress()`
 * would compress every answer again. Brotli at quality 5 and gzip at level 6: the bundle in
 * 171 ms to 405 KB and 80 ms to 462 KB, the document in 80 ms to 62 KB and 56 ms to 93 KB (quality
 * 11 saves another 12 % for 50 times the time).
 */
export class EncodedBody {
  private readonly variants = new Map<Encoding, Uint8Array>();
  readonly etag: string;

  /** `compress: false` sends it as it is whatever the client takes (see served-document.ts). */
  constructor(
    readonly bytes: Uint8Array,
    readonly contentType: string,
    private readonly compress = true,
  ) {
    this.etag = `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 16)}"`;
  }

  /** Whether compressing pays: text does, a PNG does not. */
  get compressible(): boolean {
    return this.compress && /^(text\/|application\/(json|javascript))/.test(this.contentType) && this.bytes.length > 1024;
  }

  /** The bytes in `encoding`, made on first use. */
  encoded(encoding: Encoding): Uint8Array {
    let found = this.variants.get(encoding);
    if (!found) {
      found =
        encoding === 'br'
          ? brotliCompressSync(this.bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: this.bytes.length } })
          : gzipSync(this.bytes, { level: 6 });
      this.variants.set(encoding, found);
    }
    return found;
  }
}

/**
 * The encoding an `Accept-Encoding` header prefers (the higher `q`, RFC 9110 section 12.5.3; br at
 * equal weight), if it allows one and weights it above `identity`. `gzip;q=1, br;q=0.5` got br,
 * and `gzip;q=0.5, identity` gzip: the weights the client gave were ignored.
 */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  if (!acceptEncoding) return undefined;
  const allowed = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
    allowed.set(name!.trim(), q === undefined ? 1 : Number(q));
  }
  const weight = (name: Encoding) => allowed.get(name) ?? allowed.get('*') ?? 0;
  const br = weight('br');
  const gzip = weight('gzip');
  const best = Math.max(br, gzip);
  // The bytes as they are when the client weights them higher than either encoding it names.
  if (best <= 0 || (allowed.get('identity') ?? 0) > best) return undefined;
  return br >= gzip ? 'br' : 'gzip';
}

/** Whether an `If-None-Match` header names `etag` (weak or strong). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  return ifNoneMatch !== undefined && ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || tag.trim().replace(/^W\//, '') === etag);
}

/**
 * The answer of an encoded body: 304 when the client has it, else the bytes in the best encoding
 * it takes. A compressed answer's ETag is weak (`W/"..."`): a strong one names these very bytes
 * (RFC 9110 section 8.8.3), and the gzip, br and plain bytes all carried the plain bytes' strong
 * tag, so a cache could take one for another (a range of one spliced into another). `If-None-Match`
 * compares weakly, so any of them still gets the 304.
 */
export function encodedResponse(
  body: EncodedBody,
  request: { acceptEncoding?: string | undefined; ifNoneMatch?: string | undefined },
  headers: Record<string, string>,
): Response {
  const encoding = body.compressible ? chooseEncoding(request.acceptEncoding) : undefined;
  const common = { ...headers, etag: encoding ? `W/${body.etag}` : body.etag, vary: 'Accept-Encoding' };
  if (matchesEtag(request.ifNoneMatch, body.etag)) return new Response(null, { status: 304, headers: common });
  const bytes = encoding ? body.encoded(encoding) : body.bytes;
  return new Response(bytes, {
    headers: { ...common, 'content-type': body.contentType, ...(encoding ? { 'content-encoding': encoding } : {}) },
  });
}
