/**
 * How deep JSON text nests, found without parsing it, a piece at a time as it arrives.
 *
 * `JSON.parse` builds the whole value before anything can look at its depth: 5 MB of `[[[...`
 * took about 2 s and hundreds of MB. This scanner counts brackets outside strings and stops at
 * the first one past the limit, so a hostile body costs microseconds. Hand-written rather than a
 * streaming JSON parser from npm: it needs no parsing at all, only where strings start and end
 * (an unescaped quote), which is these few lines; the text is parsed by `JSON.parse` afterwards.
 * Strings are skipped with `indexOf`, so the bulk of a body (base64 logos, long texts) is not
 * looked at character by character.
 */
export class JsonDepthScanner {
  private depth = 0;
  private inString = false;
  /** The last piece ended in a backslash inside a string: the next character is escaped. */
  private escaped = false;
  /** Deepest nesting seen so far. */
  deepest = 0;

  constructor(private readonly maxDepth: number) {}

  /** Scans the next piece of text; `false` as soon as the nesting passes `maxDepth`. */
  feed(text: string): boolean {
    const length = text.length;
    let i = 0;
    // Position of the next backslash at or after i (or `length`), found once per backslash.
    let backslash = -1;
    while (i < length) {
      if (this.inString) {
        if (this.escaped) {
          this.escaped = false;
          i += 1;
          continue;
        }
        const quote = text.indexOf('"', i);
        if (backslash < i) {
          backslash = text.indexOf('\\', i);
          if (backslash < 0) backslash = length;
        }
        if (backslash < length && (quote < 0 || backslash < quote)) {
          // Skip the backslash and the character it escapes (which may be in the next piece).
          if (backslash + 1 >= length) this.escaped = true;
          i = backslash + 2;
          continue;
        }
        if (quote < 0) return true;
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
          if (this.depth > this.maxDepth) return false;
        }
      } else if (code === 0x5d || code === 0x7d) {
        this.depth -= 1;
      }
      i += 1;
    }
    return true;
  }
}

/** Whether JSON text nests deeper than `maxDepth` arrays and objects (strings are not counted). */
export function nestsDeeperThan(text: string, maxDepth: number): boolean {
  return !new JsonDepthScanner(maxDepth).feed(text);
}

/** No request of this API nests deeper; deeper documents are refused before they are parsed. */
export const MAX_DEPTH = 64;
