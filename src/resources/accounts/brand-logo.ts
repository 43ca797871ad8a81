/** Brand colours of the seeded carriers: background and text. Other carriers get a neutral badge. */
const colours: Record<string, [string, string]> = {
  postnl: ['#ff6200', '#ffffff'],
  dpd: ['#dc0032', '#ffffff'],
  'dhl-express': ['#ffcc00', '#d40511'],
  'royal-mail': ['#e1251b', '#ffe01b'],
  bpost: ['#ef2637', '#ffffff'],
  evri: ['#007bc4', '#ffffff'],
};

/**
 * Text for the badge: markup characters as references, and the characters XML 1.0 cannot hold at
 * all, not even as references (C0 controls, U+FFFE, U+FFFF), as U+FFFD: a tenant's carrier or broker
 * name with one made the whole SVG malformed, a broken image wherever its logo_url is shown.
 */
const escapeXml = (text: string) =>
  text
    .replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`)
    // eslint-disable-next-line no-control-regex -- these are exactly the characters XML 1.0 forbids
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '\uFFFD');

/** A 200 x 80 SVG badge with a carrier or broker name, standing in for its logo (`code` picks carrier colours). */
export function brandLogoSvg(code: string, name: string): string {
  const [background, text] = colours[code] ?? ['#4b5563', '#ffffff'];
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="80" viewBox="0 0 200 80">` +
    `<rect width="200" height="80" rx="12" fill="${background}"/>` +
    `<text x="100" y="48" font-family="Helvetica, Arial, sans-serif" font-size="22" font-weight="bold" text-anchor="middle" fill="${text}">${escapeXml(name)}</text>` +
    `</svg>`
  );
}
