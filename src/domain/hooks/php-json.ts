/**
 * Writes a JSON text the way production writes a webhook's body. Production's API is PHP, whose
 * `json_encode` escapes every `/` as `\/` and every character beyond ASCII as `\uXXXX` (one escape
 * per UTF-16 unit, lower-case hex); JSON.stringify leaves both as they are. Both spellings parse to
 * the same value, so a receiver that signs the raw body accepts either. A receiver that decodes the
 * body and signs PHP's `json_encode` of what it decoded (MyParcel.com's Magento 2 plugin does)
 * gets the bytes production signed back only in PHP's spelling: in the other it computes another
 * signature and refuses the webhook.
 *
 * Outside its strings a JSON text holds neither a `/` nor a character beyond ASCII, so every match
 * is inside a string, where the escape stands for the same character.
 */
export function inPhpSpelling(json: string): string {
  return json.replace(/[/\u0080-\uffff]/g, (char) => (char === '/' ? '\\/' : `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`));
}
