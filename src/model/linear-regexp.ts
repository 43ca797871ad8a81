import { setFlagsFromString } from 'node:v8';

/*
 * Regular expressions the data supplies, which a tenant's pack can set: the postal code patterns
 * of a service's regions and the `pattern`s of a carrier's credentials_format or an option's
 * values. On V8's usual engine a pattern such as `^(a+)+$` backtracks exponentially: one request
 * naming a 30-character postal code held the process (every tenant's requests and jobs) for
 * minutes. They run on V8's linear-time engine instead (the `l` flag, which
 * `--enable-experimental-regexp-engine` turns on; it changes no other expression), which refuses
 * what it cannot run in linear time: backreferences and lookarounds, and in Node 20 the `i` and
 * `u` flags, so case is folded by hand below. Where the flag is gone (a Node whose V8 dropped
 * it), patterns run on the usual engine as before.
 */

let linear: boolean | undefined;

/** V8's flag for its linear-time engine (ESLint's RegExp check does not know it). */
const LINEAR = 'l';

/** Whether this V8 has the linear engine, turning it on the first time. */
function linearEngine(): boolean {
  if (linear === undefined) {
    try {
      setFlagsFromString('--enable-experimental-regexp-engine');
      new RegExp('', LINEAR);
      linear = true;
    } catch {
      linear = false;
    }
  }
  return linear;
}

/** `pattern` compiled to run in time linear in its input; a SyntaxError when it cannot. */
export function linearRegExp(pattern: string): RegExp {
  return linearEngine() ? new RegExp(pattern, LINEAR) : new RegExp(pattern);
}

const upperAscii = (text: string) => text.replace(/[a-z]+/g, (letters) => letters.toUpperCase());

/**
 * The pattern with its ASCII letters in capitals, but not those naming an escape (`\d`, `\w`,
 * `\p{...}`): it matches an upper-cased text as the pattern with the `i` flag matches the text.
 */
function capitalPattern(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char !== '\\') {
      out += upperAscii(char);
      continue;
    }
    const next = pattern[i + 1] ?? '';
    // \p{Letter} and \k<name> name something: copied as written.
    const named =
      (next === 'p' || next === 'P') && pattern[i + 2] === '{'
        ? pattern.indexOf('}', i)
        : next === 'k' && pattern[i + 2] === '<'
          ? pattern.indexOf('>', i)
          : -1;
    const end = named === -1 ? i + 1 : named;
    out += pattern.slice(i, end + 1);
    i = end;
  }
  return out;
}

/**
 * A case-insensitive test of postal codes against `pattern`, in linear time: the code's ASCII
 * letters and the pattern's are compared in capitals. A SyntaxError when the pattern cannot run
 * so (see above) or is no regular expression.
 */
export function postalCodeMatcher(pattern: string): (postalCode: string) => boolean {
  if (!linearEngine()) {
    const regexp = new RegExp(pattern, 'i');
    return (postalCode) => regexp.test(postalCode);
  }
  const regexp = linearRegExp(capitalPattern(pattern));
  return (postalCode) => regexp.test(upperAscii(postalCode));
}
