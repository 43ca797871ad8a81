import { z } from 'zod';
import { ownOr404, organizationOf } from '../../domain/returns/access.js';
import { createQuestion, deleteQuestion, updateQuestion } from '../../domain/returns/reasons.js';
import { endpoint } from '../../http/endpoint.js';
import { jsonApi } from '../../http/respond.js';
import { collectionDocument, resourceDocument } from '../../jsonapi/document.js';
import { checkIdentity, resourceRequest } from '../../jsonapi/request.js';
import { errorDocument } from '../../jsonapi/schemas.js';
import { answerTypes, returnQuestionAttributes } from '../../model/returns/config.js';
import { LANGUAGE_NOTE, acceptLanguage, languageHeader, questionsRead, questionsWrite, readOnly } from './common.js';
import { questionKind, questionSchemas } from './config-kinds.js';

const TAG = 'Return questions';
const params = z.object({ return_question_id: z.string() });

const createRequest = resourceRequest({
  id: 'ReturnQuestionCreateRequest',
  attributes: returnQuestionAttributes.extend({ answer_type: z.enum(answerTypes).default('string').describe('Default string.') }),
  relationships: z.record(z.string(), z.unknown()).optional(),
});
const updateRequest = resourceRequest({
  id: 'ReturnQuestionUpdateRequest',
  update: true,
  attributes: returnQuestionAttributes.partial().extend({ created_at: readOnly }).optional(),
  relationships: z.record(z.string(), z.unknown()).optional(),
});

export const questionEndpoints = [
  endpoint({
    method: 'get',
    path: '/returns/v1/questions',
    operationId: 'listReturnQuestions',
    summary: 'List return questions',
    description: `The questions of the caller's organization that its shops can ask with a reason (seeded with a default set). ${LANGUAGE_NOTE}`,
    tag: TAG,
    auth: questionsRead,
    paginated: true,
    responses: { 200: { description: 'The questions.', schema: questionSchemas.list } },
    headers: languageHeader,
    handler: (ctx, { page, headers }) => {
      const rows = ctx.store.find('returnQuestions', 'organization_id', organizationOf(ctx));
      return jsonApi(collectionDocument(ctx, questionKind(acceptLanguage(headers['Accept-Language'])), rows, page));
    },
  }),
  endpoint({
    method: 'post',
    path: '/returns/v1/questions',
    operationId: 'createReturnQuestion',
    summary: 'Create a return question',
    description:
      'A question a shop can ask with a reason (`PATCH /returns/v1/shops/{shop_id}/reasons/{return_reason_id}`), answered with text or yes/no (`answer_type`). `description` is a text or one per locale (`{"en-GB": "...", "nl-NL": "..."}`). Codes are unique in the organization.',
    tag: TAG,
    auth: questionsWrite,
    body: createRequest,
    responses: {
      201: { description: 'The new question.', schema: questionSchemas.document },
      409: { description: 'The body type is not return-questions (10007).', schema: errorDocument },
      422: { description: 'A code in use (10008).', schema: errorDocument },
    },
    handler: async (ctx, { body }) => {
      checkIdentity(body.data, 'return-questions');
      const row = await ctx.store.transact((tx) => createQuestion(tx, ctx, body.data.attributes));
      return jsonApi(resourceDocument(ctx, questionKind(undefined), row), 201, { location: ctx.url(`/returns/v1/questions/${row.id}`) });
    },
  }),
  endpoint({
    method: 'get',
    path: '/returns/v1/questions/{return_question_id}',
    operationId: 'getReturnQuestion',
    summary: 'Get a return question',
    description: `${LANGUAGE_NOTE}`,
    tag: TAG,
    auth: questionsRead,
    params,
    responses: { 200: { description: 'The question.', schema: questionSchemas.document } },
    headers: languageHeader,
    handler: (ctx, { params: path, headers }) =>
      jsonApi(
        resourceDocument(
          ctx,
          questionKind(acceptLanguage(headers['Accept-Language'])),
          ownOr404(ctx, 'returnQuestions', 'return-questions', path.return_question_id),
        ),
      ),
  }),
  endpoint({
    method: 'patch',
    path: '/returns/v1/questions/{return_question_id}',
    operationId: 'updateReturnQuestion',
    summary: 'Change a return question',
    description: 'Send only what changes. A new code is carried into the shops that ask the question; returns already made keep the question as it was.',
    tag: TAG,
    auth: questionsWrite,
    params,
    body: updateRequest,
    responses: {
      200: { description: 'The whole question.', schema: questionSchemas.document },
      409: { description: 'The body type or id does not match (10007).', schema: errorDocument },
      422: { description: 'A code in use (10008).', schema: errorDocument },
    },
    handler: async (ctx, { params: path, body }) => {
      const current = ownOr404(ctx, 'returnQuestions', 'return-questions', path.return_question_id);
      checkIdentity(body.data, 'return-questions', path.return_question_id);
      const { created_at: _ignored, ...changes } = body.data.attributes ?? {};
      const row = await ctx.store.transact((tx) => updateQuestion(tx, current, changes));
      return jsonApi(resourceDocument(ctx, questionKind(undefined), row));
    },
  }),
  endpoint({
    method: 'delete',
    path: '/returns/v1/questions/{return_question_id}',
    operationId: 'deleteReturnQuestion',
    summary: 'Delete a return question',
    description: 'Shops stop asking it; returns already made keep the answers given.',
    tag: TAG,
    auth: questionsWrite,
    params,
    responses: { 204: { description: 'Deleted.' } },
    handler: async (ctx, { params: path }) => {
      const current = ownOr404(ctx, 'returnQuestions', 'return-questions', path.return_question_id);
      await ctx.store.transact((tx) => deleteQuestion(tx, current));
      return new Response(null, { status: 204 });
    },
  }),
];
