import type { LocalizedText } from '../../model/returns/common.js';
import { DEFAULT_LOCALE } from '../../model/shop.js';

/** `*` asks for every translation; a locale for one; nothing for the text as stored. */
export type LocaleChoice = string | undefined;

/** A text in the locale asked for: that translation, else English, else the first there is. */
export function textIn(text: LocalizedText, locale: string | undefined): string {
  if (typeof text === 'string') return text;
  return (locale ? text[locale] : undefined) ?? text[DEFAULT_LOCALE] ?? Object.values(text)[0] ?? '';
}

/**
 * A text as a reader asked for it (`Accept-Language`): one locale gives a string, `*` or no
 * header the text as stored (a string, or every translation).
 */
export function localized(text: LocalizedText, choice: LocaleChoice): LocalizedText {
  if (choice === undefined || choice === '*') return text;
  return textIn(text, choice);
}
