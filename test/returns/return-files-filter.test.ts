import { beforeAll, describe, expect, it } from 'vitest';
import { firstError, testSandbox, type Json, type TestSandbox } from '../support/app.js';
import { returnBody, returnsWorld, type ReturnsWorld } from './support.js';

let sandbox: TestSandbox;
let w: ReturnsWorld;
let returnId: string;

beforeAll(async () => {
  sandbox = await testSandbox();
  w = await returnsWorld(sandbox);
  const shop = w.shopIn('NL');
  const order = (await w.orders(shop.id))[0];
  const method = await w.method(shop.id, 'Return label (PostNL)');
  const items = [{ id: order.attributes.items[0].id, quantity: 1, reason: { code: 'too-small', questions: [{ code: 'worn', answer: false }] } }];
  const created = await sandbox.request('POST', '/returns/v1/returns', { token: w.token, body: returnBody({ shop, order, method, items }) });
  returnId = created.body.data.id;
  expect((await sandbox.request('POST', `/returns/v1/returns/${returnId}/approve`, { token: w.token })).status).toBe(204);
  await sandbox.advance(5);
});

const files = (filter: string) => sandbox.get(`/returns/v1/returns/${returnId}/files?filter[document_type]=${filter}`, w.token);

describe("filter[document_type] on a return's files", () => {
  it('takes a comma separated list of document types, as on a shipment’s files', async () => {
    const answer = await files('label,customs-declaration-form');
    expect(answer.status).toBe(200);
    expect(answer.body.data.map((file: Json) => file.attributes.document_type)).toEqual(['label']);
  });

  it('refuses a document type production does not have with a 400 naming the parameter, rather than an empty list', async () => {
    const answer = await files('lable');
    expect(answer.status).toBe(400);
    expect(firstError(answer)).toMatchObject({ code: '10003', source: { parameter: 'filter[document_type]' } });
  });
});
