/**
 * How deep JSON text nests and how many values it holds, found without parsing it, a piece at a
 * time as it arrives.
 *
 * `JSON.parse` builds the whole value before anything can look at its depth: 5 MB of `[[[...`
 * took about 2 s and hundreds of MB, and 5 MB of a million small members about 0.5 s. This
 * scanner counts brackets and commas outside strings and stops at the first one past a limit, so
 * a hostile body costs one pass. Hand-written rather than a streaming JSON parser from npm: it
 * needs no parsing at all, only where strings start and end (an unescaped quote), which is these
 * few lines; the text is parsed by `JSON.parse` afterwards. Strings are skipped with `indexOf`,
 * so the bulk of a body (base64 logos, long texts) is not looked at character by character, and
 * the next quote and the next backslash are each searched for once and remembered until passed:
 * searching for the quote again after every escape made a 5 MB string of `\u0000` cost 32 s.
 */
export class JsonDepthScanner {
  private depth = 0;
  private inString = false;
  /** The last piece ended in a backslash inside a string: the next character is escaped. */
  private escaped = false;
  /** Deepest nesting seen so far. */
  deepest = 0;
  /** Arrays, objects and commas seen outside strings: one more than the values a text holds, at most. */
  elements = 0;
  /** The limit the text broke, once `feed` said `false`. */
  broke: 'depth' | 'elements' | undefined;

  constructor(
    private readonly maxDepth: number,
    private readonly maxElements = Number.POSITIVE_INFINITY,
  ) {}

  /** Scans the next piece of text; `false` as soon as the nesting passes `maxDepth` or the values `maxElements`. */
  feed(text: string): boolean {
    const length = text.length;
    let i = 0;
    // Positions of the next quote and the next backslash at or after i (`length` when none), each
    // found once and kept until i passes it, so no character is searched twice.
    let quote = -1;
    let backslash = -1;
    while (i < length) {
      if (this.inString) {
        if (this.escaped) {
          this.escaped = false;
          i += 1;
          continue;
        }
        if (quote < i) quote = indexOr(text, '"', i, length);
        if (backslash < i) backslash = indexOr(text, '\\', i, length);
        if (backslash < quote) {
          // Skip the backslash and the character it escapes (which may be in the next piece).
          if (backslash + 1 >= length) this.escaped = true;
          i = backslash + 2;
          continue;
        }
        if (quote === length) return true;
        this.inString = false;
        i = quote + 1;
        continue;
      }
      const code = text.charCodeAt(i);
      if (code === 0x22) {
        this.inString = true;
      } else if (code === 0x5b || code === 0x7b) {
        this.depth += 1;
        if (this.depth > this.deepest) {
          this.deepest = this.depth;
          if (this.depth > this.maxDepth) return this.stop('depth');
        }
        if (++this.elements > this.maxElements) return this.stop('elements');
      } else if (code === 0x5d || code === 0x7d) {
        this.depth -= 1;
      } else if (code === 0x2c) {
        if (++this.elements > this.maxElements) return this.stop('elements');
      }
      i += 1;
    }
    return true;
  }

  private stop(limit: 'depth' | 'elements'): false {
    this.broke = limit;
    return false;
  }
}

/** Where `search` next occurs in `text` from `from`, or `length` when it does not. */
function indexOr(text: string, search: string, from: number, length: number): number {
  const at = text.indexOf(search, from);
  return at < 0 ? length : at;
}

/** Whether JSON text nests deeper than `maxDepth` arrays and objects (strings are not counted). */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  return !new JsonDepthScanner(maxDepth).feed(text);
}

/** No request of this API nests deeper; deeper documents are refused before they are parsed. */
export const MAX_DEPTH = 64;

/**
 * No request of this API holds more values (members and items): the largest, a shipment of 500
 * customs items with a dozen members each, holds about 8,000. Past it a body is refused before
 * it is parsed, so parsing, validation and the request log handle at most this many values
 * (5 MB of a million members took 0.5 s to parse and 67 MB of errors to answer).
 */
export const MAX_ELEMENTS = 20_000;
