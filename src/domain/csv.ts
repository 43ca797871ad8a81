/**
 * The one way the sandbox writes CSV (manifests, return reports): RFC 4180 cells and CRLF lines,
 * with every cell a spreadsheet would run as a formula made text (OWASP's CSV injection rules).
 */

/** First characters that make Excel, LibreOffice or Google Sheets read a cell as a formula (or as the start of one). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A cell that is wholly a decimal number is read as that number by every spreadsheet, never run: `-12.50` stays a number. */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

/** Characters that oblige RFC 4180 to quote a cell. */
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV cell. A cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return gets an
 * apostrophe in front and is quoted, so a spreadsheet shows it as text instead of running it; a
 * cell with a comma, quote or line break is quoted; quotes inside are doubled.
 */
function csvCell(value: string | number | undefined): string {
  const text = value === undefined ? '' : String(value);
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) return `"'${text.replaceAll('"', '""')}"`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A whole CSV text: one line per row, cells through `csvCell`, each line ended by CRLF. */
export function csvText(rows: readonly (readonly (string | number | undefined)[])[]): string {
  return rows.map((row) => row.map(csvCell).join(',') + '\r\n').join('');
}
