import { beforeEach, describe, expect, it } from 'vitest';
import { firstError, testSandbox, type Json, type TestSandbox } from '../support/app.js';
import { returnsWorld, type ReturnsWorld } from './support.js';

let sandbox: TestSandbox;
let w: ReturnsWorld;

beforeEach(async () => {
  sandbox = await testSandbox();
  w = await returnsWorld(sandbox);
});

const post = (path: string, body: Json, token = w.token) => sandbox.request('POST', path, { token, body });

describe('return reasons and questions', () => {
  it('seeds a catalogue per organization, localized by Accept-Language', async () => {
    const all = await sandbox.get('/returns/v1/reasons?page[size]=100', w.token);
    expect(all.status).toBe(200);
    const codes = all.body.data.map((r: Json) => r.attributes.code);
    expect(codes).toEqual(expect.arrayContaining(['too-small', 'damaged', 'not-as-described']));
    const damaged = all.body.data.find((r: Json) => r.attributes.code === 'damaged');
    expect(damaged.attributes.description).toMatchObject({ 'en-GB': 'Arrived damaged', 'nl-NL': 'Beschadigd aangekomen' });
    expect(damaged.attributes).toMatchObject({ accepts_attachments: true, requires_attachments: true });

    const dutch = await sandbox.request('GET', `/returns/v1/reasons/${damaged.id}`, { token: w.token, headers: { 'accept-language': 'nl-NL' } });
    expect(dutch.body.data.attributes.description).toBe('Beschadigd aangekomen');
    // As RFC 9110 reads the header: any case, a language alone, the weights before the order, q=0 for none.
    const described = async (header: string) =>
      (await sandbox.request('GET', `/returns/v1/reasons/${damaged.id}`, { token: w.token, headers: { 'accept-language': header } })).body.data.attributes
        .description;
    expect(await described('nl-nl')).toBe('Beschadigd aangekomen');
    expect(await described('da-DK, nl;q=0.8, en;q=0.5')).toBe('Beschadigd aangekomen');
    expect(await described('en-GB;q=0.2, nl-NL;q=0.9')).toBe('Beschadigd aangekomen');
    expect(await described('nl-NL;q=0, en-US, en;q=0.7')).toBe('Arrived damaged');
    expect(await described('en-US')).toMatchObject({ 'en-GB': 'Arrived damaged', 'nl-NL': 'Beschadigd aangekomen' });
    const tagged = await sandbox.get('/returns/v1/reasons?filter[tags]=size', w.token);
    expect(tagged.body.data.map((r: Json) => r.attributes.code).sort()).toEqual(['too-large', 'too-small']);

    const other = await sandbox.token('other-client');
    expect((await sandbox.get(`/returns/v1/reasons/${damaged.id}`, other)).status).toBe(404);
  });

  it('creates, changes and deletes reasons; codes are unique and requirements need acceptance', async () => {
    const body = (code: string, extra: Json = {}) => ({
      data: {
        type: 'return-reasons',
        attributes: {
          code,
          description: { 'en-GB': 'Smells odd' },
          accepts_attachments: false,
          requires_attachments: false,
          accepts_comment: true,
          requires_comment: false,
          ...extra,
        },
      },
    });
    const created = await post('/returns/v1/reasons', body('odd-smell'));
    expect(created.status).toBe(201);
    const again = await post('/returns/v1/reasons', body('odd-smell'));
    expect(again.status).toBe(422);
    expect(firstError(again).source.pointer).toBe('/data/attributes/code');
    const unreachable = await post('/returns/v1/reasons', body('photo', { requires_attachments: true }));
    expect(firstError(unreachable).source.pointer).toBe('/data/attributes/accepts_attachments');
    // Every broken rule at once.
    const all = await post('/returns/v1/reasons', body('odd-smell', { requires_attachments: true, accepts_comment: false, requires_comment: true }));
    expect(all.body.errors.map((e: Json) => e.source.pointer)).toEqual([
      '/data/attributes/code',
      '/data/attributes/accepts_attachments',
      '/data/attributes/accepts_comment',
    ]);

    const id = created.body.data.id;
    const changed = await sandbox.request('PATCH', `/returns/v1/reasons/${id}`, {
      token: w.token,
      body: { data: { type: 'return-reasons', id, attributes: { requires_comment: true } } },
    });
    expect(changed.body.data.attributes.requires_comment).toBe(true);
    // A requirement a PATCH turns on beside the acceptance the reason keeps off is blamed on what it sent.
    const requires = await sandbox.request('PATCH', `/returns/v1/reasons/${id}`, {
      token: w.token,
      body: { data: { type: 'return-reasons', id, attributes: { requires_attachments: true } } },
    });
    expect(requires.body.errors.map((e: Json) => [e.source.pointer, e.detail])).toEqual([
      ['/data/attributes/requires_attachments', 'A reason that requires attachments must accept them. Send accepts_attachments: true too.'],
    ]);
    // An acceptance it turns off beside the kept requirement is blamed itself.
    const refuses = await sandbox.request('PATCH', `/returns/v1/reasons/${id}`, {
      token: w.token,
      body: { data: { type: 'return-reasons', id, attributes: { accepts_comment: false } } },
    });
    expect(firstError(refuses).source.pointer).toBe('/data/attributes/accepts_comment');
    expect((await sandbox.request('DELETE', `/returns/v1/reasons/${id}`, { token: w.token })).status).toBe(204);
    expect((await sandbox.get(`/returns/v1/reasons/${id}`, w.token)).status).toBe(404);
  });

  it('questions default to text answers', async () => {
    const created = await post('/returns/v1/questions', {
      data: { type: 'return-questions', attributes: { code: 'colour', description: 'Which colour did you order?' } },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.attributes).toEqual({ code: 'colour', description: 'Which colour did you order?', answer_type: 'string' });
    expect((await sandbox.get('/returns/v1/questions?page[size]=100', w.token)).body.data).toHaveLength(4);
  });
});

describe('the reasons a shop offers', () => {
  it("shows each reason with the shop's rules and questions in the shop's language", async () => {
    const shop = w.shopIn('NL');
    const list = await sandbox.get(`/returns/v1/shops/${shop.id}/reasons`, w.token);
    expect(list.status).toBe(200);
    const damaged = list.body.data.find((r: Json) => r.attributes.code === 'damaged');
    expect(damaged.attributes.description).toBe('Beschadigd aangekomen');
    expect(damaged.attributes.questions).toEqual([
      {
        code: 'original-packaging',
        description: 'Zit het artikel in de originele verpakking?',
        is_required: true,
        answer_type: 'boolean',
        no_note: expect.any(String),
      },
    ]);
    const english = await sandbox.request('GET', `/returns/v1/shops/${shop.id}/reasons`, { token: w.token, headers: { 'accept-language': 'en-GB,en;q=0.8' } });
    expect(english.body.data[0].attributes.description).toBe('Too small');
  });

  it('changes how a reason is offered, and checks question codes', async () => {
    const shop = w.shopIn('NL');
    const reasons = (await sandbox.get(`/returns/v1/shops/${shop.id}/reasons`, w.token)).body.data;
    const changedMind = reasons.find((r: Json) => r.attributes.code === 'changed-mind');
    const path = `/returns/v1/shops/${shop.id}/reasons/${changedMind.id}`;
    const bad = await sandbox.request('PATCH', path, { token: w.token, body: { data: { questions: [{ code: 'nope', is_required: true }] } } });
    expect(bad.status).toBe(422);
    expect(firstError(bad).source.pointer).toBe('/data/questions/0/code');
    const ok = await sandbox.request('PATCH', path, {
      token: w.token,
      body: { data: { comment: 'required', questions: [{ code: 'expectation', is_required: false }] } },
    });
    expect(ok.status).toBe(204);
    const after = (await sandbox.get(`/returns/v1/shops/${shop.id}/reasons`, w.token)).body.data.find((r: Json) => r.id === changedMind.id);
    expect(after.attributes).toMatchObject({
      accepts_comment: true,
      requires_comment: true,
      questions: [{ code: 'expectation', is_required: false, answer_type: 'string' }],
    });

    expect((await sandbox.request('DELETE', path, { token: w.token })).status).toBe(204);
    expect((await sandbox.request('DELETE', path, { token: w.token })).status).toBe(404);
    const readd = await post(`/returns/v1/shops/${shop.id}/reasons`, { data: { return_reason_ids: [changedMind.id] } });
    expect(readd.status).toBe(204);
    const foreignShop = (await sandbox.get('/shops', await sandbox.token('other-client'))).body.data[0];
    expect((await sandbox.get(`/returns/v1/shops/${foreignShop.id}/reasons`, w.token)).status).toBe(404);
  });
});

describe('a question that stops being a yes/no one', () => {
  it("hides the shops' yes_note and no_note while it is not, so a shop reason sent back as read is taken", async () => {
    const shop = w.shopIn('NL');
    const damagedOf = async () =>
      (await sandbox.get(`/returns/v1/shops/${shop.id}/reasons`, w.token)).body.data.find((r: Json) => r.attributes.code === 'damaged');
    const asked = (await damagedOf()).attributes.questions[0];
    expect(asked).toMatchObject({ code: 'original-packaging', answer_type: 'boolean', no_note: expect.any(String) });
    const question = (await sandbox.get('/returns/v1/questions', w.token)).body.data.find((q: Json) => q.attributes.code === 'original-packaging');
    const answerType = async (answer_type: string) => {
      const changed = await sandbox.request('PATCH', `/returns/v1/questions/${question.id}`, {
        token: w.token,
        body: { data: { type: 'return-questions', id: question.id, attributes: { answer_type } } },
      });
      expect(changed.status, changed.text).toBe(200);
    };

    await answerType('string');
    const { yes_note: _yes, no_note: _no, ...asText } = asked;
    expect((await damagedOf()).attributes.questions).toEqual([{ ...asText, answer_type: 'string' }]);
    // Made a yes/no question again, it has the shop's notes back.
    await answerType('boolean');
    expect((await damagedOf()).attributes.questions).toEqual([asked]);

    await answerType('string');
    const damaged = await damagedOf();
    const sentBack = await sandbox.request('PATCH', `/returns/v1/shops/${shop.id}/reasons/${damaged.id}`, {
      token: w.token,
      body: { data: { questions: damaged.attributes.questions } },
    });
    expect(sentBack.status, sentBack.text).toBe(204);
  });
});

describe('return tags', () => {
  it('belong to a shop of the caller', async () => {
    const shop = w.shopIn('NL');
    const created = await post('/returns/v1/tags', {
      data: { type: 'return-tags', attributes: { name: 'VIP', color: '#123456' }, relationships: { shop: { data: { type: 'shops', id: shop.id } } } },
    });
    expect(created.status).toBe(201);
    expect(created.body.data.relationships.shop.data.id).toBe(shop.id);
    const foreignShop = (await sandbox.get('/shops', await sandbox.token('other-client'))).body.data[0];
    const foreign = await post('/returns/v1/tags', {
      data: { type: 'return-tags', attributes: { name: 'VIP', color: '#123456' }, relationships: { shop: { data: { type: 'shops', id: foreignShop.id } } } },
    });
    // Another tenant's shop is an unknown id: 404, as production documents for this operation.
    expect(foreign.status).toBe(404);
    expect(firstError(foreign)).toMatchObject({ code: '10002', source: { pointer: '/data/relationships/shop/data/id' } });
    expect(firstError(foreign).detail).toContain('No resource was found for the given relationship ID.');
    const theirs = await sandbox.get(`/returns/v1/tags?filter[shop]=${foreignShop.id}`, w.token);
    expect(theirs.status).toBe(404);
    expect(firstError(theirs).source).toEqual({ parameter: 'filter[shop]' });
    const list = await sandbox.get(`/returns/v1/tags?filter[shop]=${shop.id}&include=shop`, w.token);
    expect(list.body.data.map((t: Json) => t.attributes.name)).toEqual(['Priority', 'Check quality', 'VIP']);
    expect(list.body.included[0].id).toBe(shop.id);
  });
});

describe('lists of returns configuration', () => {
  it('keep their order when one of their rows changes (a shop reason, a tag, a method)', async () => {
    const shop = w.shopIn('NL');
    const order = async (path: string) => (await sandbox.get(path, w.token)).body.data.map((row: Json) => row.id);
    const patch = (path: string, body: Json) => sandbox.request('PATCH', path, { token: w.token, body });

    const reasonsPath = `/returns/v1/shops/${shop.id}/reasons`;
    const reasons = await order(reasonsPath);
    expect(reasons.length).toBeGreaterThan(1);
    expect((await patch(`${reasonsPath}/${reasons[0]}`, { data: { comment: 'required' } })).status).toBe(204);
    expect(await order(reasonsPath)).toEqual(reasons);

    const tagsPath = `/returns/v1/tags?filter[shop]=${shop.id}`;
    const tags = await order(tagsPath);
    expect(tags.length).toBeGreaterThan(1);
    expect((await patch(`/returns/v1/tags/${tags[0]}`, { data: { type: 'return-tags', id: tags[0], attributes: { name: 'Renamed' } } })).status).toBe(200);
    expect(await order(tagsPath)).toEqual(tags);

    const methodsPath = `/returns/v1/return-methods?filter[shop]=${shop.id}`;
    const methods = await order(methodsPath);
    expect(methods.length).toBeGreaterThan(1);
    const renamed = { data: { type: 'return-methods', id: methods[0], attributes: { title: 'Renamed' } } };
    expect((await patch(`/returns/v1/return-methods/${methods[0]}`, renamed)).status).toBe(200);
    expect(await order(methodsPath)).toEqual(methods);
  });
});
