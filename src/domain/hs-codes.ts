import type { HsCodeEntry } from '../model/reference.js';

/** An HS code a description may fall under, with how well the words match (0 to 1). */
export interface HsSuggestion {
  hs_code: string;
  commodity_code: string;
  vector_weight: number;
  product_description: string;
}

const STOP_WORDS = new Set(['and', 'for', 'the', 'with', 'of', 'in', 'set', 'pack', 'size', 'new']);

/**
 * The words of a text: lower case without accents; a hyphenated word counts whole and by its
 * parts (`t-shirt`, `t`, `shirt`); one-letter words and filler words are left out.
 */
function words(text: string): Set<string> {
  const folded = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/'s\b/g, '');
  const out = new Set<string>();
  for (const word of folded.split(/[^a-z0-9-]+/)) {
    for (const part of [word, ...word.split('-')]) if (part.length > 1 && !STOP_WORDS.has(part)) out.add(part);
  }
  return out;
}

/** Whether a description word names a keyword: the same, or its plural (`shoes`, `boxes`). */
const names = (word: string, keyword: string) => word === keyword || word === `${keyword}s` || word === `${keyword}es`;

/**
 * HS codes for an item description, best first: the weight is the cosine of the two word sets
 * (words in common over the square root of both sizes), rounded to 4 decimals. Only codes that
 * share a word; ties go by HS code, so the answer never changes for the same description.
 */
export function suggestHsCodes(table: readonly HsCodeEntry[], description: string, limit = 5): HsSuggestion[] {
  const query = [...words(description)];
  if (query.length === 0) return [];
  const scored = table.flatMap((entry) => {
    const common = query.filter((word) => entry.keywords.some((keyword) => names(word, keyword))).length;
    if (common === 0) return [];
    const weight = Math.round((common / Math.sqrt(query.length * entry.keywords.length)) * 10000) / 10000;
    return [{ hs_code: entry.hs_code, commodity_code: entry.commodity_code, vector_weight: weight, product_description: entry.description }];
  });
  return scored.sort((a, b) => b.vector_weight - a.vector_weight || a.hs_code.localeCompare(b.hs_code)).slice(0, limit);
}
