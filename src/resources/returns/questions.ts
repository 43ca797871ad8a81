import { z } from 'zod';
import { ownOr404, organizationOf } from '../../domain/returns/access.js';
import { createQuestion, deleteQuestion, updateQuestion } from '../../domain/returns/reasons.js';
import { endpoint } from '../../http/endpoint.js';
import { writeEndpoints } from '../write-endpoints.js';
import { jsonApi } from '../../http/respond.js';
import { collectionDocument, resourceDocument } from '../../jsonapi/document.js';
import { resourceRequest } from '../../jsonapi/request.js';
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
  ...writeEndpoints({
    kind: questionKind(undefined),
    table: 'returnQuestions',
    tag: TAG,
    noun: 'return question',
    path: '/returns/v1/questions',
    auth: questionsWrite,
    schemas: questionSchemas,
    own: (ctx, id) => ownOr404(ctx, 'returnQuestions', 'return-questions', id),
    create: {
      summary: 'Create a return question',
      description:
        'A question a shop can ask with a reason (`PATCH /returns/v1/shops/{shop_id}/reasons/{return_reason_id}`), answered with text or yes/no (`answer_type`). `description` is a text or one per locale (`{"en-GB": "...", "nl-NL": "..."}`). Codes are unique in the organization.',
      body: createRequest,
      answer: 'The new question.',
      errors: { 409: 'The body type is not return-questions (10007).', 422: 'A code in use (10008).' },
      insert: (tx, ctx, { attributes }) => createQuestion(tx, ctx, attributes),
    },
    update: {
      summary: 'Change a return question',
      description: 'Send only what changes. A new code is carried into the shops that ask the question; returns already made keep the question as it was.',
      body: updateRequest,
      answer: 'The whole question.',
      errors: { 409: 'The body type or id does not match (10007).', 422: 'A code in use (10008).' },
      change: (tx, _ctx, current, { attributes }) => {
        const { created_at: _ignored, ...changes } = attributes ?? {};
        return updateQuestion(tx, current, changes);
      },
    },
    delete: {
      summary: 'Delete a return question',
      description: 'Shops stop asking it; returns already made keep the answers given.',
      answer: 'Deleted.',
      remove: (tx, _ctx, current) => deleteQuestion(tx, current),
    },
  }),
];
