/*
 * The choices of a combined file, apart from the renderer so that request schemas can name them
 * without loading the PDF libraries.
 */

/** Every label on an A6 page, four A6 labels per A4 sheet, or each document in its own size. */
export const COMBINED_PAGE_SIZES = ['A6', 'A4', 'original'] as const;
export type CombinedPageSize = (typeof COMBINED_PAGE_SIZES)[number];

/** The quarters of an A4 sheet, in the order labels fill them. */
export const SHEET_POSITIONS = ['top-left', 'top-right', 'bottom-left', 'bottom-right'] as const;
export type SheetPosition = (typeof SHEET_POSITIONS)[number];
