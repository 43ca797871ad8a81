import { z } from 'zod';
import { COMBINED_PAGE_SIZES, SHEET_POSITIONS } from '../../domain/labels/sheet.js';
import { combineFiles, MAX_COMBINED_FILES } from '../../domain/shipments/combine-files.js';
import { endpoint } from '../../http/endpoint.js';
import { textResponse } from '../../http/response-text.js';
import { JSONAPI_MEDIA_TYPE } from '../../jsonapi/document.js';
import { errorDocument } from '../../jsonapi/schemas.js';

const combineRequest = z
  .object({
    data: z.object({
      file_ids: z
        .array(z.string())
        .min(1, 'name at least one file')
        .max(MAX_COMBINED_FILES, `name at most ${MAX_COMBINED_FILES} files`)
        .describe('The files (labels, customs declarations) in the order they are printed.'),
      page_size: z
        .enum(COMBINED_PAGE_SIZES)
        .optional()
        .describe('A6: a label per page; A4: four A6 labels per sheet; original (default): each document in its own size.'),
      starting_position: z
        .enum(SHEET_POSITIONS)
        .optional()
        .describe('With A4: the quarter of the first sheet the first label takes (default top-left); the quarters before it stay empty.'),
    }),
  })
  .meta({ id: 'CombineFilesRequest' });

export const combineFileEndpoints = [
  endpoint({
    method: 'post',
    path: '/combine-files',
    operationId: 'combineFiles',
    summary: 'Combine label files into one PDF',
    description:
      "One PDF of several files of the caller's shipments, in the order given, answered as production does: the PDF base64 as text/plain. " +
      'page_size A6 puts every label on its own A6 page; A4 puts four A6 labels on each sheet with cut lines between them, the first sheet from starting_position on; original (the default) keeps each document in its own size. ' +
      "Customs declarations take whole A4 pages (with A6 they are a 422). A manifest's or return report's file is a 422 naming it; files of other organizations answer 404.",
    tag: 'Files',
    auth: { anyOf: ['shipments.manage', 'shipments.view'] },
    body: combineRequest,
    produces: ['text/plain', 'application/json', JSONAPI_MEDIA_TYPE],
    responses: {
      200: { description: 'The combined PDF, base64.', schema: z.string().meta({ id: 'CombinedFile' }), contentTypes: ['text/plain'] },
      404: { description: "A file that does not exist or is not the caller's (10002); the pointer names it.", schema: errorDocument },
      422: { description: "A customs declaration on A6 pages, or a manifest's or return report's file (10008); the pointer names it.", schema: errorDocument },
    },
    handler: async (ctx, { body }) => {
      const combiner = await ctx.rules.libraries.labels();
      const { data } = body;
      const pdf = combineFiles(ctx, combiner, { fileIds: data.file_ids, pageSize: data.page_size ?? 'original', start: data.starting_position ?? 'top-left' });
      return textResponse(pdf.toString('base64'), { headers: { 'content-type': 'text/plain; charset=utf-8' } });
    },
  }),
];
