/**
 * A JSON body may escape characters (`\u00e9`, a pair for an emoji), but a string holding half of
 * a UTF-16 pair is not Unicode: it is refused where it was sent, and nothing is made of it.
 */
import { describe, expect, it } from 'vitest';
import { firstError, testSandbox } from './support/app.js';

/** A hook of the seeded organization whose name is `name`, written as JSON text (escapes as sent). */
const hookBody = (name: string, organization: string) =>
  `{"data":{"type":"hooks","attributes":{"name":${name},"order":1,"active":true,` +
  `"trigger":{"resource_type":"shipments","resource_action":"create","predicates":[]},` +
  `"action":{"action_type":"update-resource","values":[{"pointer":"/attributes/channel","value":"hooked"}]}},` +
  `"relationships":{"owner":{"data":{"type":"organizations","id":"${organization}"}}}}}`;

describe('strings that are not Unicode in a JSON body', () => {
  it('refuses an unpaired surrogate escape, a high or a low one, at the member that holds it; nothing is made', async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.token();
    const organization = (await sandbox.get('/shops', token)).body.data[0].relationships.organization.data.id;
    const hooks = sandbox.store.count('hooks');
    for (const name of ['"Night \\ud800 run"', '"\\udc00"', '"ends with \\ud83d"']) {
      const answer = await sandbox.request('POST', '/hooks', { token, body: hookBody(name, organization) });
      expect(answer.status, name).toBe(400);
      expect(firstError(answer)).toMatchObject({ code: '10003', source: { pointer: '/data/attributes/name' } });
      expect(firstError(answer).detail).toContain('surrogate');
    }
    // A member name and an array item are pointed at too.
    const inKey = await sandbox.request('POST', '/hooks', { token, body: '{"data":{"type":"hooks","attributes":{"\\udfff":1}}}' });
    expect(firstError(inKey).source).toEqual({ pointer: '/data/attributes/\udfff' });
    const inArray = await sandbox.request('POST', '/hooks', { token, body: '{"data":{"type":"hooks","attributes":{"tags":["a","\\ud800"]}}}' });
    expect(firstError(inArray).source).toEqual({ pointer: '/data/attributes/tags/1' });
    expect(sandbox.store.count('hooks')).toBe(hooks);
  });

  it('takes escaped characters, surrogate pairs, and an escaped backslash before a u', async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.token();
    const organization = (await sandbox.get('/shops', token)).body.data[0].relationships.organization.data.id;
    const answer = await sandbox.request('POST', '/hooks', { token, body: hookBody('"Caf\\u00e9 \\ud83d\\ude9a \\\\ud800"', organization) });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.data.attributes.name).toBe('Café 🚚 \\ud800');
  });
});
