// The API reference's response examples: real answers to the operations' examples, captured once
// by `npm run docs:answers` (scripts/documented-answers.ts) on a fresh default-seed sandbox and
// committed as documented-answers.json. Executing ~190 examples takes seconds, so the answers are
// captured when the committed document is made, not when a sandbox serves its document; the
// builder only merges them in, with the links' server swapped for the serving one.
import answers from './documented-answers.json' with { type: 'json' };
import { COMMITTED_SERVER_URL } from './committed.js';

/** One operation's captured answer: its status, media type and JSON body (lists trimmed). */
export interface DocumentedAnswer {
  status: number;
  type: string;
  body: unknown;
}

/** Captured answers by operation id. */
export type DocumentedAnswers = Record<string, DocumentedAnswer>;

/** The server the answers were captured on: the committed document's, so it needs no rewriting. */
export const ANSWERS_SERVER_URL = COMMITTED_SERVER_URL;

/** The committed answers, with every link to the capture's server pointing at `serverUrl` instead. */
export function documentedAnswers(serverUrl: string): DocumentedAnswers {
  const captured = answers as DocumentedAnswers;
  if (serverUrl === ANSWERS_SERVER_URL) return captured;
  const rewrite = (value: unknown): unknown => {
    if (typeof value === 'string') return value.startsWith(ANSWERS_SERVER_URL) ? serverUrl + value.slice(ANSWERS_SERVER_URL.length) : value;
    if (Array.isArray(value)) return value.map(rewrite);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, rewrite(entry)]));
    return value;
  };
  return Object.fromEntries(Object.entries(captured).map(([id, answer]) => [id, { ...answer, body: rewrite(answer.body) }]));
}
