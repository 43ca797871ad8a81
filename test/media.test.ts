import { describe, expect, it } from 'vitest';
import { chooseMediaType } from '../src/http/media.js';

const JSONAPI = 'application/vnd.api+json';
/** What a label's file endpoint offers: the resource first, then the file's formats. */
const LABEL = [JSONAPI, 'image/png', 'application/pdf'];
const PDF_ONLY = [JSONAPI, 'application/pdf'];

describe('chooseMediaType (RFC 9110 section 12.5.1)', () => {
  it('gives the first offered type when the client does not care', () => {
    for (const accept of [undefined, '', '  ', '*/*', '*/*;q=0.5']) expect(chooseMediaType(accept, LABEL), String(accept)).toBe(JSONAPI);
  });

  it('reads every JSON media type as the JSON:API one', () => {
    for (const accept of ['application/json', JSONAPI, 'application/hal+json', 'APPLICATION/JSON', 'application/vnd.api+json; ext=x'])
      expect(chooseMediaType(accept, LABEL), accept).toBe(JSONAPI);
  });

  it('matches subtype wildcards', () => {
    expect(chooseMediaType('image/*', LABEL)).toBe('image/png');
    expect(chooseMediaType('image/*', PDF_ONLY)).toBeUndefined();
    expect(chooseMediaType('image/*, application/vnd.api+json;q=0.5', PDF_ONLY)).toBe(JSONAPI);
    expect(chooseMediaType('application/*', PDF_ONLY)).toBe(JSONAPI);
    expect(chooseMediaType('text/*', LABEL)).toBeUndefined();
  });

  it('prefers the higher q, not the first listed', () => {
    expect(chooseMediaType('image/png;q=0.2, application/pdf', LABEL)).toBe('application/pdf');
    expect(chooseMediaType('image/png;Q=0.2, application/pdf;q=0.3', LABEL)).toBe('application/pdf');
    expect(chooseMediaType('application/pdf;q=0.5, */*;q=0.9', LABEL)).toBe(JSONAPI);
  });

  it('takes q=0 as not acceptable', () => {
    expect(chooseMediaType('application/pdf;q=0, application/vnd.api+json', LABEL)).toBe(JSONAPI);
    expect(chooseMediaType('application/pdf;q=0', PDF_ONLY)).toBeUndefined();
    expect(chooseMediaType('application/vnd.api+json;q=0', [JSONAPI])).toBeUndefined();
    expect(chooseMediaType('application/json;q=0.000', [JSONAPI])).toBeUndefined();
    expect(chooseMediaType('application/xml, */*;q=0', [JSONAPI])).toBeUndefined();
  });

  it('lets the most specific range that matches a type set its q', () => {
    expect(chooseMediaType('*/*, application/pdf;q=0', PDF_ONLY)).toBe(JSONAPI);
    expect(chooseMediaType('image/*;q=0, image/png', LABEL)).toBe('image/png');
    expect(chooseMediaType('image/png;q=0, image/*', LABEL)).toBeUndefined();
    expect(chooseMediaType('*/*;q=0, image/png;q=0.1', LABEL)).toBe('image/png');
    // The JSON:API type named itself outranks a JSON alias of it.
    expect(chooseMediaType('application/vnd.api+json;q=0, application/json', [JSONAPI])).toBeUndefined();
    expect(chooseMediaType('application/json;q=0, application/vnd.api+json', [JSONAPI])).toBe(JSONAPI);
  });

  it('breaks a tie of q by the range named more exactly, then by the order listed, then by the order offered', () => {
    expect(chooseMediaType('application/pdf, */*', LABEL)).toBe('application/pdf');
    expect(chooseMediaType('*/*, image/png', LABEL)).toBe('image/png');
    expect(chooseMediaType('application/pdf, image/png', LABEL)).toBe('application/pdf');
    expect(chooseMediaType('image/png, application/pdf', LABEL)).toBe('image/png');
    expect(chooseMediaType('image/png, application/pdf', ['application/pdf', 'image/png'])).toBe('image/png');
    expect(chooseMediaType('image/*', ['application/pdf', 'image/png', 'image/gif'])).toBe('image/png');
    expect(chooseMediaType('application/json, application/pdf', LABEL)).toBe(JSONAPI);
  });

  it('ignores parameters other than q, and what follows q', () => {
    expect(chooseMediaType('image/png; charset=x; q=0.1; foo=bar, application/pdf;q=0.2', LABEL)).toBe('application/pdf');
  });

  it('skips ranges it cannot read, and refuses when nothing else is left', () => {
    expect(chooseMediaType('garbage, image/png', LABEL)).toBe('image/png');
    expect(chooseMediaType('*/png, application/', LABEL)).toBeUndefined();
    expect(chooseMediaType(';;;', LABEL)).toBeUndefined();
    // An unreadable q counts as 1; one out of range is clamped.
    expect(chooseMediaType('application/pdf;q=x', PDF_ONLY)).toBe('application/pdf');
    expect(chooseMediaType('application/pdf;q=7, application/vnd.api+json;q=0.5', PDF_ONLY)).toBe('application/pdf');
    expect(chooseMediaType('application/pdf;q=-1', PDF_ONLY)).toBeUndefined();
  });
});
