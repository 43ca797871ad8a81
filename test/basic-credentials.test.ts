import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeJsonSyntax } from '../src/controls/pack-source.js';
import { loadStartPack } from '../src/fixtures/start-pack.js';
import { firstError, testSandbox, type TestSandbox } from './support/app.js';

/** Secrets a start pack may give its clients: any text of 8 to 255 characters. */
const clients = [
  { id: 'space-client', secret: 'correct horse battery' },
  { id: 'percent-client', secret: 'p%zz-and-50%' },
  { id: 'plus-client', secret: 'a+b/c=d+e' },
];

/**
 * The three ways OAuth clients write id and secret into a Basic header: form-encoded as RFC 6749
 * (2.3.1, appendix B) asks, a space as `+` (openid-client, simple-oauth2's default); percent-encoded
 * with `%20` (encodeURIComponent); as they are (curl -u, axios' `auth`, simple-oauth2's `loose`).
 */
const writings = {
  form: (text: string) => encodeURIComponent(text).replace(/%20/g, '+'),
  percent: encodeURIComponent,
  raw: (text: string) => text,
};

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

describe('HTTP Basic client credentials on POST /access-token', () => {
  let sandbox: TestSandbox;
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'basic-credentials-'));
    const file = join(folder, 'clients.json');
    await writeFile(file, JSON.stringify({ clients: clients.map((client) => ({ ...client, user: 'user-a' })) }));
    sandbox = await testSandbox({ fixtures: await loadStartPack(file, false, describeJsonSyntax) });
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  const ask = (authorization: string, body = 'grant_type=client_credentials') =>
    sandbox.request('POST', '/access-token', { body, headers: { 'content-type': 'application/x-www-form-urlencoded', authorization } });

  it('takes a secret holding a space, % or + however the client wrote it', async () => {
    const answers = [];
    for (const { id, secret } of clients) {
      for (const [name, write] of Object.entries(writings)) {
        const answer = await ask(basic(write(id), write(secret)));
        answers.push(`${id} ${name}: ${answer.status} ${answer.status === 200 ? decodeJwt(answer.body.access_token).sub : firstError(answer).detail}`);
      }
    }
    expect(answers).toEqual(clients.flatMap(({ id }) => Object.keys(writings).map((name) => `${id} ${name}: 200 ${id}`)));
  });

  it('still refuses a wrong secret in every writing, and body credentials that differ from the header', async () => {
    for (const write of Object.values(writings)) {
      const answer = await ask(basic('space-client', write('correct horse')));
      expect([answer.status, firstError(answer).code, firstError(answer).source]).toEqual([401, '14000', { header: 'Authorization' }]);
      expect(answer.headers.get('www-authenticate')).toMatch(/^Basic /);
    }
    // The body names the secret as it is; the header's form-encoded reading says the same thing.
    const same = await ask(
      basic('space-client', 'correct+horse+battery'),
      'grant_type=client_credentials&client_id=space-client&client_secret=correct+horse+battery',
    );
    expect(same.status).toBe(200);
    const differs = await ask(basic('space-client', 'correct+horse+battery'), 'grant_type=client_credentials&client_secret=correct+horse');
    expect([differs.status, firstError(differs).code]).toEqual([400, '14000']);
  });
});
