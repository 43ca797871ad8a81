import { describe, expect, it } from 'vitest';
import { BASE, firstError, testSandbox, TEST_NOW, type Json, type TestSandbox } from './support/app.js';
import { tinyPng } from './support/images.js';
import { DataWriteError, memoryPersistence, type Persistence } from '../src/store/persistence.js';
import type { Logger } from '../src/http/services.js';
import { REQUEST_LOG_BODY_LIMIT, REQUEST_LOG_RESPONSE_LIMIT } from '../src/requestlog/log.js';

const requests = async (sandbox: TestSandbox, query = '', admin?: string) => {
  const answer = await sandbox.get(`/_sandbox/requests${query}`, admin);
  expect(answer.status, answer.text).toBe(200);
  return answer.body.data as Json[];
};

describe('the request log', () => {
  it('keeps method, path with query, status, duration, client, sandbox time, headers and bodies', async () => {
    const sandbox = await testSandbox();
    await sandbox.advance(60);
    const token = await sandbox.token();
    const shops = await sandbox.request('GET', '/shops?page[size]=1', { token, headers: { 'x-trace': 'abc' } });
    const [entry] = await requests(sandbox);
    expect(entry).toMatchObject({
      method: 'GET',
      path: '/shops?page[size]=1',
      status: 200,
      client_id: 'sandbox-client',
      time: TEST_NOW + 60,
      request: { headers: { authorization: 'Bearer [REDACTED]', 'x-trace': 'abc' } },
      response: { headers: { 'content-type': 'application/vnd.api+json' } },
    });
    expect(entry.duration_ms).toEqual(expect.any(Number));
    expect(entry.response.body).toEqual(shops.body);
    expect(entry.request).not.toHaveProperty('body');

    const bad = await sandbox.request('POST', '/_sandbox/clock', { body: { advance: -1 } });
    const [logged] = await requests(sandbox);
    expect(logged).toMatchObject({ method: 'POST', path: '/_sandbox/clock', status: 422, request: { body: { advance: -1 } }, response: { body: bad.body } });
    expect(logged).not.toHaveProperty('client_id');
  });

  it('attributes a successful token request to its client', async () => {
    const sandbox = await testSandbox();
    await sandbox.token('other-client');
    const [entry] = await requests(sandbox);
    expect(entry).toMatchObject({ path: '/access-token', status: 200, client_id: 'other-client' });
  });

  it('lists newest first, filters by client and path prefix, and limits (default 50, at most 500)', async () => {
    const sandbox = await testSandbox();
    const mine = await sandbox.token();
    const theirs = await sandbox.token('other-client');
    await sandbox.get('/shops', mine);
    await sandbox.get('/shipments', theirs);
    await sandbox.get('/shops', theirs);
    await sandbox.read('/services?page[size]=2');

    const all = await requests(sandbox);
    expect(all.map((e) => `${e.method} ${e.path}`)).toEqual([
      'GET /services?page[size]=2',
      'GET /shops',
      'GET /shipments',
      'GET /shops',
      'POST /access-token',
      'POST /access-token',
    ]);
    expect(all.map((e) => e.id)).toEqual([...all.map((e) => e.id)].sort((a, b) => b - a));
    expect((await requests(sandbox, '?client_id=other-client')).map((e) => e.path)).toEqual(['/shops', '/shipments', '/access-token']);
    expect((await requests(sandbox, '?path=/sh')).map((e) => e.path)).toEqual(['/shops', '/shipments', '/shops']);
    expect((await requests(sandbox, '?path=/shops&client_id=sandbox-client')).map((e) => e.client_id)).toEqual(['sandbox-client']);
    expect(await requests(sandbox, '?limit=2')).toEqual(all.slice(0, 2));
    expect(await requests(sandbox, '?limit=0')).toEqual([]);
    expect(await requests(sandbox, '?path=/nothing')).toEqual([]);
    const invalid = await sandbox.get('/_sandbox/requests?limit=many');
    expect(invalid.status).toBe(400);
    expect(firstError(invalid).source).toEqual({ parameter: 'limit' });

    for (let i = 0; i < 60; i += 1) await sandbox.read(`/services?page[number]=${i}`);
    expect(await requests(sandbox)).toHaveLength(50);
    expect(await requests(sandbox, '?limit=10000')).toHaveLength(66);
  });

  it("refuses a path filter without its leading '/', which no logged path could match", async () => {
    const sandbox = await testSandbox();
    await sandbox.get('/shops', await sandbox.token());
    const refused = await sandbox.get('/_sandbox/requests?path=shops');
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      expect.objectContaining({
        code: '10003',
        detail: "'path' must start with '/', as every logged path does (path=/shipments).",
        source: { parameter: 'path' },
      }),
    ]);
    expect((await requests(sandbox, '?path=/shops')).map((e) => e.path)).toEqual(['/shops']);
  });

  it('keeps only the last 500 requests, and never logs itself or /health', async () => {
    const sandbox = await testSandbox();
    for (let i = 0; i < 510; i += 1) await sandbox.read(`/regions?n=${i}`);
    await sandbox.get('/health');
    await requests(sandbox);
    const entries = await requests(sandbox, '?limit=500');
    expect(entries).toHaveLength(500);
    expect(entries[0].path).toBe('/regions?n=509');
    expect(entries[499].path).toBe('/regions?n=10');
    expect(entries.some((e) => e.path.startsWith('/_sandbox/requests') || e.path === '/health')).toBe(false);
  });

  it('keeps JSON Schemas that describe secrets readable (carrier credentials_format)', async () => {
    const sandbox = await testSandbox();
    const carriers = await sandbox.read('/carriers?page[size]=1');
    const [entry] = await requests(sandbox);
    expect(entry.response.body).toEqual(carriers.body);
    expect(JSON.stringify(entry.response.body)).toContain('"api_key":{"type":"string"');
  });

  it('belongs to one sandbox instance', async () => {
    const [one, two] = [await testSandbox(), await testSandbox()];
    await one.read('/carriers');
    expect(await requests(one)).toHaveLength(1);
    expect(await requests(two)).toEqual([]);
  });

  it('needs the admin token when one is configured', async () => {
    const sandbox = await testSandbox({ config: { adminToken: 'let-me-in' } });
    await sandbox.read('/carriers');
    expect((await sandbox.get('/_sandbox/requests')).status).toBe(401);
    expect((await sandbox.get('/_sandbox/requests', 'wrong')).status).toBe(401);
    const entries = await requests(sandbox, '', 'let-me-in');
    expect(entries.map((e) => `${e.status} ${e.path}`)).toEqual(['200 /carriers']);
  });

  it('leaves binary downloads intact and only notes their type and size', async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.token();
    const png = tinyPng();
    const organization = (await sandbox.get('/organizations', token)).body.data[0].id;
    const shop = await sandbox.request('POST', '/shops', {
      token,
      body: {
        data: {
          type: 'shops',
          attributes: {
            name: 'Logo shop',
            sender_address: { street_1: 'Damrak', city: 'Amsterdam', country_code: 'NL' },
            return_address: { street_1: 'Damrak', city: 'Amsterdam', country_code: 'NL' },
          },
          relationships: { organization: { data: { type: 'organizations', id: organization } } },
          meta: { logo: { mime_type: 'image/png', contents: png.toString('base64') } },
        },
      },
    });
    expect(shop.status, shop.text).toBe(201);
    const url = new URL(shop.body.data.attributes.logo_url);
    const response = await sandbox.app.request(BASE + url.pathname);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await response.arrayBuffer()).equals(png)).toBe(true);

    const [download, upload] = await requests(sandbox, '?limit=2');
    expect(download).toMatchObject({ path: url.pathname, status: 200, response: { note: `image/png body of ${png.length} bytes, not logged` } });
    expect(download.response).not.toHaveProperty('body');
    // The uploaded logo is replaced by a size note, in the request and in the echo of the response.
    expect(upload.request.body.data.meta.logo).toEqual({ mime_type: 'image/png', contents: `[${png.length} bytes of base64 contents, not logged]` });
    expect(upload.response.body.data.meta.logo.contents).toBe(`[${png.length} bytes of base64 contents, not logged]`);
    expect(JSON.stringify(await requests(sandbox, '?limit=500'))).not.toContain(png.toString('base64'));
  });

  it('keeps a body over the capture limit cut down by its structure, with its size', async () => {
    const sandbox = await testSandbox();
    const answer = await sandbox.request('POST', '/_sandbox/clock', { body: { advance: 1, padding: 'x'.repeat(100_000) } });
    expect(answer.status).toBe(400);
    const [entry] = await requests(sandbox);
    expect(entry.request).toMatchObject({ truncated: true, size: 100_026, note: expect.stringContaining('100026 bytes, more than the 16 KiB kept') });
    expect(entry.request.body.advance).toBe(1);
    expect(entry.request.body.padding).toMatch(/^x{200,}… \[100000 characters, cut\]$/);
    expect(JSON.stringify(entry.request.body).length).toBeLessThanOrEqual(REQUEST_LOG_BODY_LIMIT);
    expect(entry.response.body).toEqual(answer.body);
  });

  it('redacts secret members of a body over the limit on its parsed members, escaped names included', async () => {
    const sandbox = await testSandbox();
    const body = `{"client_secret": "plain-s3cret-value", "nested": {"password":"pa\\"ss", "dhl": {"api_secret": "dhl-api-s3cret", "api_k\\u0065y": "escaped-key-s3cret"}}, "padding": "${'x'.repeat(100_000)}"}`;
    await sandbox.request('POST', '/_sandbox/clock', { body });
    const [entry] = await requests(sandbox);
    expect(entry.request.truncated).toBe(true);
    expect(entry.request.body.client_secret).toBe('[REDACTED]');
    expect(entry.request.body.nested).toEqual({ password: '[REDACTED]', dhl: { api_secret: '[REDACTED]', api_key: '[REDACTED]' } });
    const text = JSON.stringify(entry);
    for (const secret of ['plain-s3cret-value', 'pa\\"ss', 'dhl-api-s3cret', 'escaped-key-s3cret']) expect(text).not.toContain(secret);
  });

  it('does not show a request body it cannot parse, whatever its size: it notes it', async () => {
    const sandbox = await testSandbox();
    await sandbox.request('POST', '/_sandbox/clock', { body: '{"client_secret": "broken-s3cret", ', headers: { 'content-type': 'application/json' } });
    const [broken] = await requests(sandbox);
    expect(broken.request).not.toHaveProperty('body');
    expect(broken.request.note).toMatch(/application\/json body of 35 bytes, not shown: it is not valid JSON/);
    // Refused (415) before it was read: the log reads a small body of known length itself.
    const plainBody = 'client_secret=plain text-s3cret';
    await sandbox.request('POST', '/_sandbox/clock', {
      body: plainBody,
      headers: { 'content-type': 'text/plain', 'content-length': String(plainBody.length) },
    });
    const [plain] = await requests(sandbox);
    expect(plain.request.note).toMatch(/text\/plain body of \d+ bytes, not shown: it is neither JSON nor a form/);
    expect(JSON.stringify(await requests(sandbox, '?limit=10'))).not.toMatch(/broken-s3cret|text-s3cret/);
  });

  it('shows a string the API refused as not Unicode (a lone \\ud800) with U+FFFD, so the log stays JSON strict parsers read', async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.token();
    const body = '{"data": {"type": "shipments", "attributes": {"description": "a\\ud800", "x\\udc00": 1}}}';
    const refused = await sandbox.request('POST', '/shipments', { body, token, headers: { 'content-type': 'application/json' } });
    expect(refused.status).toBe(400);
    const answer = await sandbox.get('/_sandbox/requests?limit=1');
    // jq, for one, refuses a document holding an escaped lone surrogate: the whole page would be unreadable.
    expect(answer.text).not.toMatch(/(?<!\\)\\ud[89a-f][0-9a-f]{2}/i);
    const [entry] = answer.body.data as Json[];
    expect(entry.request.body.data.attributes).toEqual({ description: 'a\uFFFD', 'x\uFFFD': 1 });
  });

  it('keeps JSON responses over a smaller limit cut down by their structure: every top-level member named', async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.request('POST', '/access-token', {
      body: { grant_type: 'client_credentials', client_id: 'sandbox-client', client_secret: 'sandbox-secret' },
      headers: { 'content-type': 'application/json' },
    });
    const page = await sandbox.request('GET', '/services?page[size]=30', { token: token.body.access_token });
    expect(page.text.length).toBeGreaterThan(REQUEST_LOG_RESPONSE_LIMIT);
    const small = await sandbox.request('GET', '/regions?page[size]=1', { token: token.body.access_token });
    expect(small.text.length).toBeLessThan(REQUEST_LOG_RESPONSE_LIMIT);
    const [last, first] = await requests(sandbox);
    expect(first.response).toMatchObject({ truncated: true, size: Buffer.byteLength(page.text) });
    expect(Object.keys(first.response.body)).toEqual(Object.keys(page.body));
    expect(first.response.body.meta).toEqual(page.body.meta);
    expect(first.response.body.links).toEqual(page.body.links);
    expect(first.response.body.data[0].id).toBe(page.body.data[0].id);
    expect(first.response.body.data.at(-1)).toMatch(/^\[\d+ more items, not kept\]$/);
    expect(JSON.stringify(first.response.body).length).toBeLessThanOrEqual(REQUEST_LOG_RESPONSE_LIMIT + 200);
    expect(last.response.truncated).toBeUndefined();
    expect(last.response.body).toEqual(small.body);
  });
});

describe('the request log and clients that go away', () => {
  it('logs 499 and what the answer would have been when the client closed the connection before it (as the Node server tells it)', async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.token();
    // What @hono/node-server hands the app: the ServerResponse, destroyed before it was written.
    const gone = { outgoing: { destroyed: true, writableEnded: false } };
    const answer = await sandbox.app.fetch(new Request(`${BASE}/shops?page[size]=1`, { headers: { authorization: `Bearer ${token}` } }), gone);
    expect(answer.status).toBe(200);
    const [entry] = await requests(sandbox);
    expect(entry).toMatchObject({ path: '/shops?page[size]=1', status: 499, client_id: 'sandbox-client' });
    expect(entry.response.note).toBe("not sent: the client closed the connection before the answer (the sandbox's answer would have been 200)");
    expect(entry.response).not.toHaveProperty('body');
  });
});

describe('the request log and oversized bodies', () => {
  it('logs a request refused for its size without reading more than it may', async () => {
    const sandbox = await testSandbox({ config: { bodyLimit: 2048 } });
    const token = await sandbox.token();
    const answer = await sandbox.request('POST', '/shipments', { token, body: { data: { padding: 'x'.repeat(10_000) } } });
    expect(answer.status).toBe(413);
    const [entry] = await requests(sandbox);
    expect(entry).toMatchObject({ method: 'POST', path: '/shipments', status: 413, response: { body: answer.body } });
  });
});

describe('redaction in the request log', () => {
  it('never shows client secrets, access tokens, credentials or the admin token', async () => {
    const admin = 'admin-token-0f9e8d7c6b5a';
    const sandbox = await testSandbox({ config: { adminToken: admin } });
    const credentialSecret = `cred-secret-${Math.random().toString(36).slice(2)}-${Date.now()}`;
    const tokens: string[] = [];

    // Tokens as JSON, as an HTML form, and with HTTP Basic client authentication.
    tokens.push(await sandbox.token());
    const form = await sandbox.request('POST', '/access-token', {
      body: 'grant_type=client_credentials&client_id=other-client&client_secret=other-secret',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.status, form.text).toBe(200);
    tokens.push(form.body.access_token);
    const basic = await sandbox.request('POST', '/access-token', {
      body: { grant_type: 'client_credentials' },
      headers: { authorization: `Basic ${Buffer.from('limited-client:limited-secret').toString('base64')}`, 'content-type': 'application/json' },
    });
    expect(basic.status, basic.text).toBe(200);
    tokens.push(basic.body.access_token);
    const wrong = await sandbox.request('POST', '/access-token', {
      body: { grant_type: 'client_credentials', client_id: 'sandbox-client', client_secret: 'not-the-sandbox-secret' },
    });
    expect(wrong.status).toBe(401);

    // A contract with a unique secret in its credentials.
    const token = tokens[0]!;
    const organization = (await sandbox.get('/organizations', token)).body.data[0].id;
    const postnl = (await sandbox.read('/carriers')).body.data.find((c: Json) => c.attributes.code === 'postnl');
    const contract = await sandbox.request('POST', '/contracts', {
      token,
      body: {
        data: {
          type: 'contracts',
          attributes: {
            name: 'Secret contract',
            currency: 'EUR',
            credentials: { customer_code: 'DEVC', customer_number: '11223344', api_key: credentialSecret },
          },
          relationships: { carrier: { data: { type: 'carriers', id: postnl.id } }, owner: { data: { type: 'organizations', id: organization } } },
        },
      },
    });
    expect(contract.status, contract.text).toBe(201);
    const patched = await sandbox.request('PATCH', `/contracts/${contract.body.data.id}`, {
      token,
      body: {
        data: {
          type: 'contracts',
          id: contract.body.data.id,
          attributes: { credentials: { customer_code: 'DEVC', customer_number: '11223344', api_key: `${credentialSecret}-2` } },
        },
      },
    });
    expect(patched.status, patched.text).toBe(200);

    // A tenant, its token, a token in a query string, and a revoke by token.
    const tenant = await sandbox.request('POST', '/_sandbox/tenants', { token: admin, body: { name: 'redaction' } });
    expect(tenant.status, tenant.text).toBe(201);
    const tenantToken = await sandbox.request('POST', '/access-token', {
      body: { grant_type: 'client_credentials', client_id: tenant.body.client_id, client_secret: tenant.body.client_secret },
    });
    expect(tenantToken.status).toBe(200);
    tokens.push(tenantToken.body.access_token);
    await sandbox.get(`/shops?access_token=${tokens[3]}`, tokens[3]);
    const revoked = await sandbox.request('POST', '/_sandbox/revoke', { token: admin, body: { token: tokens[1] } });
    expect(revoked.status).toBe(200);
    expect((await sandbox.get('/shops', tokens[1])).status).toBe(401);

    const log = await sandbox.get('/_sandbox/requests?limit=500', admin);
    expect(log.status).toBe(200);
    const text = log.text;
    expect(log.body.data.length).toBe(13);
    const forbidden = [
      credentialSecret,
      'sandbox-secret',
      'other-secret',
      'limited-secret',
      'not-the-sandbox-secret',
      Buffer.from('limited-client:limited-secret').toString('base64'),
      tenant.body.client_secret,
      admin,
      ...tokens,
      ...tokens.map((t) => t.split('.')[2]!),
    ];
    for (const secret of forbidden) expect(text, `the log shows ${secret}`).not.toContain(secret);

    // What was redacted is still recognisable as such.
    const entries = log.body.data as Json[];
    const find = (path: string, method = 'POST') => entries.find((e) => e.path === path && e.method === method && e.status < 300)!;
    expect(find('/contracts').request.body.data.attributes.credentials).toBe('[REDACTED]');
    expect(find('/_sandbox/tenants').response.body).toEqual({ ...tenant.body, client_secret: '[REDACTED]' });
    expect(find('/_sandbox/tenants').request.headers.authorization).toBe('Bearer [REDACTED]');
    expect(find('/_sandbox/revoke').request.body).toEqual({ token: '[REDACTED]' });
    const tokenAnswers = entries.filter((e) => e.path === '/access-token' && e.status === 200);
    expect(tokenAnswers).toHaveLength(4);
    for (const entry of tokenAnswers) expect(entry.response.body).toMatchObject({ token_type: 'Bearer', access_token: '[REDACTED]' });
    expect(tokenAnswers.map((e) => e.request.body.client_secret ?? e.request.headers.authorization)).toEqual(
      expect.arrayContaining(['[REDACTED]', 'Basic [REDACTED]']),
    );
    expect(entries.find((e) => e.path.startsWith('/shops?'))!.path).toBe('/shops?access_token=%5BREDACTED%5D');
  });
});

describe('secrets wherever they travel in the logged request', () => {
  const logged = async (sandbox: TestSandbox, path: string) => {
    const answer = await sandbox.get(`/_sandbox/requests?path=${encodeURIComponent(path)}&limit=1`);
    expect(answer.body.data, `no entry for ${path}`).toHaveLength(1);
    return { entry: answer.body.data[0] as Json, text: answer.text };
  };

  it('keeps a secret query value out of the links of the logged answer (self, first, last, prev, next), long or short, however encoded', async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.token();
    const cases: [string, string][] = [
      ['api_key', 'SECRETVALUE123'],
      ['client_secret', 'ab1'],
      ['x-api-key', 'S3cr/et +&=?#%value'],
    ];
    for (const [name, secret] of cases) {
      const path = `/carriers?page[size]=1&page[number]=2&${name}=${encodeURIComponent(secret)}`;
      const answer = await sandbox.get(path, token);
      expect(answer.status).toBe(200);
      expect(Object.keys(answer.body.links).sort()).toEqual(['first', 'last', 'next', 'prev', 'self']);
      // The sandbox itself echoes the parameter in its links, as production does.
      expect(answer.body.links.self).toContain(`${name}=`);
      const { entry, text } = await logged(sandbox, '/carriers?page[size]=1&page[number]=2');
      for (const link of Object.values(entry.response.body.links) as string[]) expect(link).toContain(`${name}=%5BREDACTED%5D`);
      for (const form of [secret, encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2)])
        expect(text, `${name}: ${form}`).not.toContain(`=${form}`);
      expect(text).not.toContain(secret.length >= 8 ? secret : `${name}=${secret}`);
    }
  });

  it('keeps a secret out of an error that quotes a body it cannot parse, whole or in part', async () => {
    const sandbox = await testSandbox();
    for (const body of ['{"client_id":"x","client_secret":SPARSESECRET789}', 'x{"client_secret":"abc"}', '{"client_secret":"SPARSESECRET790"']) {
      const answer = await sandbox.request('POST', `/access-token?probe=${body.length}`, { body, headers: { 'content-type': 'application/json' } });
      expect(answer.status).toBe(400);
      const { entry, text } = await logged(sandbox, `/access-token?probe=${body.length}`);
      expect(entry.request.note).toMatch(/not shown/);
      expect(text).not.toMatch(/SPARSESECR|"abc"/);
    }
  });

  it('shows JSON sent as a form to /access-token without its secret, long or short', async () => {
    const sandbox = await testSandbox();
    for (const secret of ['SFORMSECRET789', 'S']) {
      const body = JSON.stringify({ client_id: 'x', client_secret: secret });
      const answer = await sandbox.request('POST', `/access-token?probe=form-${secret.length}`, {
        body,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(answer.status).toBe(400);
      const { entry, text } = await logged(sandbox, `/access-token?probe=form-${secret.length}`);
      // What the client sent stays readable (JSON under a form content type), its secret replaced.
      expect(entry.request.body).toEqual({ '{"client_id":"x","client_secret":"[REDACTED]"}': '' });
      expect(text).not.toContain(`\\"${secret}\\"`);
      if (secret.length >= 8) expect(text).not.toContain(secret);
    }
  });

  it('filters on the path as the log shows it, so a path prefix cannot guess a secret query value', async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.token();
    await sandbox.get('/shops?access_token=GUESSME12345', token);
    for (const guess of ['G', 'GUESS', 'GUESSME12345']) {
      expect((await sandbox.get(`/_sandbox/requests?path=${encodeURIComponent(`/shops?access_token=${guess}`)}`)).body.data).toEqual([]);
    }
    const shown = await sandbox.get(`/_sandbox/requests?path=${encodeURIComponent('/shops?access_token=%5BREDACTED%5D')}`);
    expect(shown.body.data.map((e: Json) => e.path)).toEqual(['/shops?access_token=%5BREDACTED%5D']);
  });

  it('keeps secret query values out of the process log lines of a 500 and a 503 too', async () => {
    const inner = memoryPersistence();
    // 'bug' fails the way a defect would (a 500); 'full' the way a full disk does (a 503).
    let failing: 'no' | 'bug' | 'full' = 'no';
    const persistence: Persistence = {
      location: 'failing memory',
      load: () => inner.load(),
      append: (ops) => {
        if (failing === 'bug') throw new Error('a defect');
        if (failing === 'full') throw new DataWriteError('memory', Object.assign(new Error('no room'), { code: 'ENOSPC' }));
        inner.append(ops);
      },
      flush: (snapshot) => inner.flush(snapshot),
      revert: () => inner.revert(),
      replace: (data) => inner.replace(data),
      close: () => inner.close(),
    };
    const lines: Json[] = [];
    const logger: Logger = { error: (line) => lines.push(line), warn: (line) => lines.push(line), info: () => {}, debug: () => {} };
    const sandbox = await testSandbox({ persistence, logger });
    const token = await sandbox.token();
    const shop = (await sandbox.get('/shops', token)).body.data[0];
    // An API write, which ignores a query parameter it does not know (a sandbox control refuses one: 400).
    const rename = (query: string) =>
      sandbox.request('PATCH', `/shops/${shop.id}?${query}`, {
        token,
        body: {
          data: { type: 'shops', id: shop.id, attributes: { name: query }, relationships: { organization: { data: shop.relationships.organization.data } } },
        },
      });
    failing = 'bug';
    const answer = await rename('api_key=SECRETQ12345&x=1');
    expect(answer.status).toBe(500);
    failing = 'full';
    const full = await rename('api_key=SECRETQ12345&x=2');
    expect(full.status).toBe(503);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ method: 'PATCH', url: `http://sandbox.test/shops/${shop.id}?api_key=%5BREDACTED%5D&x=1` });
    expect(lines[1]).toMatchObject({ method: 'PATCH', url: `http://sandbox.test/shops/${shop.id}?api_key=%5BREDACTED%5D&x=2` });
  });
});
