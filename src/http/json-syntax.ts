/**
 * Where JSON text first breaks the grammar, and what was expected there, for the 400 of a body
 * that `JSON.parse` refused. V8's own messages quote the text ("Unexpected token 'x', "{"passw…"
 * is not valid JSON"), which would echo a client's body (and any secret in it) into the answer and
 * the request log, and some of them give no position. Only run on text that failed to parse:
 * one pass, no values built.
 */

export interface SyntaxProblem {
  /** Offset (UTF-16 code units) of the first character that breaks the grammar; the text's length when it ended too soon. */
  position: number;
  /** What was wrong there, as a sentence fragment: `a value was expected`. */
  problem: string;
}

const isSpace = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
const isDigit = (code: number) => code >= 0x30 && code <= 0x39;
const isHex = (code: number) => isDigit(code) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
const ESCAPES = new Set([...'"\\/bfnrtu'].map((c) => c.charCodeAt(0)));

/** The end of the string starting at `at` (after its closing quote), or the problem in it. */
function stringEnd(text: string, at: number): number | SyntaxProblem {
  let i = at + 1;
  for (;;) {
    if (i >= text.length) return { position: text.length, problem: 'a string is not closed' };
    const code = text.charCodeAt(i);
    if (code === 0x22) return i + 1;
    if (code < 0x20) return { position: i, problem: 'a control character must be escaped in a string' };
    if (code === 0x5c) {
      const next = text.charCodeAt(i + 1);
      if (!ESCAPES.has(next)) return { position: i + 1, problem: 'a backslash is followed by a character it cannot escape' };
      if (next === 0x75) {
        for (let k = 2; k < 6; k++) if (!isHex(text.charCodeAt(i + k))) return { position: i + k, problem: '\\u must be followed by four hex digits' };
        i += 6;
      } else i += 2;
    } else i += 1;
  }
}

/** The end of the number starting at `at`, or the problem in it. */
function numberEnd(text: string, at: number): number | SyntaxProblem {
  let i = at;
  const digits = () => {
    const from = i;
    while (isDigit(text.charCodeAt(i))) i += 1;
    return i > from;
  };
  if (text.charCodeAt(i) === 0x2d) i += 1;
  if (text.charCodeAt(i) === 0x30) i += 1;
  else if (!digits()) return { position: i, problem: 'a digit was expected' };
  if (text.charCodeAt(i) === 0x2e) {
    i += 1;
    if (!digits()) return { position: i, problem: 'a digit was expected after the decimal point' };
  }
  if (text.charCodeAt(i) === 0x65 || text.charCodeAt(i) === 0x45) {
    i += 1;
    if (text.charCodeAt(i) === 0x2b || text.charCodeAt(i) === 0x2d) i += 1;
    if (!digits()) return { position: i, problem: 'a digit was expected in the exponent' };
  }
  return i;
}

type Expecting = 'value' | 'first item' | 'first member' | 'member' | 'colon' | 'after value';

const expected: Record<Expecting, string> = {
  value: 'a value was expected',
  'first item': "a value or ']' was expected",
  'first member': "a member name in double quotes or '}' was expected",
  member: 'a member name in double quotes was expected',
  colon: "':' was expected after the member name",
  'after value': '',
};

/** The first place `text` is not JSON, or `undefined` when it is. */
export function syntaxProblem(text: string): SyntaxProblem | undefined {
  const open: number[] = [];
  let state: Expecting = 'value';
  let i = 0;
  for (;;) {
    while (i < text.length && isSpace(text.charCodeAt(i))) i += 1;
    if (i >= text.length) {
      if (state === 'after value' && open.length === 0) return undefined;
      return { position: text.length, problem: 'the text ends too soon' };
    }
    const code = text.charCodeAt(i);
    if (state === 'after value') {
      const inside = open.at(-1);
      if (inside === undefined) return { position: i, problem: 'the document is complete, but more text follows' };
      const close = inside === 0x7b ? 0x7d : 0x5d;
      if (code === close) {
        open.pop();
        i += 1;
      } else if (code === 0x2c) {
        state = inside === 0x7b ? 'member' : 'value';
        i += 1;
      } else return { position: i, problem: `',' or '${String.fromCharCode(close)}' was expected` };
      continue;
    }
    if (state === 'colon') {
      if (code !== 0x3a) return { position: i, problem: expected.colon };
      state = 'value';
      i += 1;
      continue;
    }
    if (state === 'member' || state === 'first member') {
      if (code === 0x7d && state === 'first member') {
        open.pop();
        state = 'after value';
        i += 1;
        continue;
      }
      if (code !== 0x22) return { position: i, problem: expected[state] };
      const end = stringEnd(text, i);
      if (typeof end !== 'number') return end;
      state = 'colon';
      i = end;
      continue;
    }
    // A value (or, first in an array, its end).
    if (code === 0x5d && state === 'first item') {
      open.pop();
      state = 'after value';
      i += 1;
      continue;
    }
    let end: number | SyntaxProblem;
    if (code === 0x7b || code === 0x5b) {
      open.push(code);
      state = code === 0x7b ? 'first member' : 'first item';
      i += 1;
      continue;
    } else if (code === 0x22) end = stringEnd(text, i);
    else if (code === 0x2d || isDigit(code)) end = numberEnd(text, i);
    else {
      const word = ['true', 'false', 'null'].find((literal) => literal.charCodeAt(0) === code);
      if (!word) return { position: i, problem: expected[state] };
      let k = 1;
      while (k < word.length && text.charCodeAt(i + k) === word.charCodeAt(k)) k += 1;
      if (k < word.length) return { position: i + k, problem: i + k >= text.length ? 'the text ends too soon' : `'${word}' is misspelt` };
      end = i + word.length;
    }
    if (typeof end !== 'number') return end;
    state = 'after value';
    i = end;
  }
}

/** Where `position` is as a reader counts: line and column from 1. */
export function lineAndColumn(text: string, position: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let at = text.indexOf('\n'); at >= 0 && at < position; at = text.indexOf('\n', at + 1)) {
    line += 1;
    start = at + 1;
  }
  return { line, column: position - start + 1 };
}

/** The 400 detail for text `JSON.parse` refused: what broke and where, never the text itself. */
export function jsonSyntaxDetail(text: string): string {
  const found = syntaxProblem(text);
  if (!found) return 'The request body is not valid JSON.';
  const { line, column } = lineAndColumn(text, found.position);
  return `The request body is not valid JSON: ${found.problem} at line ${line}, column ${column} (character ${found.position + 1}).`;
}
