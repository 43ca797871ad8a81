import { describe, expect, it } from 'vitest';
import { consoleLine } from '../src/console-lines.js';
import { createLogger } from '../src/logger.js';
import { testSandbox, type TestSandbox } from './support/app.js';

/*
 * The process log's access line (http/request-log.ts) in both formats (src/logger.ts): one line
 * per request, and for a failed one the first error's code, title, detail and where, so the
 * console says why. tests/logs.e2e.test.ts checks the same of the running server.
 */

/** A destination that keeps what the logger writes, line by line. */
function sink() {
  const lines: string[] = [];
  return { lines, write: (text: string) => lines.push(...text.split('\n').filter(Boolean)) };
}

const SHIPMENT_WITHOUT_ADDRESSES = { data: { type: 'shipments', attributes: { physical_properties: { weight: 1000 } } } };

/** Five requests, each a kind the console has to show: a success, a body error, a query error, a header error, a path nothing serves. */
async function fiveRequests(sandbox: TestSandbox, token: string): Promise<void> {
  expect((await sandbox.get('/carriers', token)).status).toBe(200);
  expect((await sandbox.request('POST', '/shipments', { token, body: SHIPMENT_WITHOUT_ADDRESSES })).status).toBe(400);
  expect((await sandbox.get('/carriers?page[numbr]=2', token)).status).toBe(400);
  expect((await sandbox.request('GET', '/carriers', { token, headers: { accept: 'text/html' } })).status).toBe(406);
  expect((await sandbox.get('/nowhere')).status).toBe(404);
}

describe('the access line as JSON', () => {
  it('is one record per request; a failed one carries its first error, read from the answer the sandbox made', async () => {
    const out = sink();
    const sandbox = await testSandbox({ logger: createLogger('info', 'json', out) });
    const token = await sandbox.token();
    // A token request names the client it granted a token to.
    expect(JSON.parse(out.lines[0]!)).toMatchObject({ msg: 'POST /access-token 200', client: 'sandbox-client' });
    out.lines.length = 0;
    await fiveRequests(sandbox, token);
    const records = out.lines.map((line) => JSON.parse(line) as Record<string, any>);
    expect(records).toHaveLength(5);
    expect(records[0]).toEqual({
      level: 30,
      time: expect.any(Number),
      method: 'GET',
      path: '/carriers',
      status: 200,
      ms: expect.any(Number),
      client: 'sandbox-client',
      msg: 'GET /carriers 200',
    });
    expect(records[1]).toMatchObject({ method: 'POST', path: '/shipments', status: 400, client: 'sandbox-client', msg: 'POST /shipments 400' });
    expect(records[1]!.error).toEqual({
      code: '10003',
      title: 'Invalid JSON Schema',
      detail: expect.stringMatching(/^'\w+' is required\.$/),
      pointer: expect.stringMatching(/^\/data\/attributes\//),
      more: expect.any(Number),
    });
    expect(records[2]!.error).toEqual({
      code: '10003',
      title: 'Invalid JSON Schema',
      detail: "Unknown page parameter 'page[numbr]'. Lists take page[number] and page[size].",
      parameter: 'page[numbr]',
    });
    expect(records[3]!.error).toMatchObject({ code: '10004', header: 'Accept' });
    expect(records[4]!.error).toEqual({ code: '10000', title: 'Not Found', detail: 'Nothing is served at /nowhere. GET /openapi.json lists every endpoint.' });
  });

  it("never carries a secret the request sent, where an error's detail quotes it", async () => {
    const out = sink();
    const sandbox = await testSandbox({ logger: createLogger('info', 'json', out) });
    const secret = 'Sup3r-s3cret-value-of-a-client';
    const answer = await sandbox.request('POST', '/access-token', {
      body: { grant_type: secret, client_id: 'sandbox-client', client_secret: secret },
      headers: { 'content-type': 'application/json' },
    });
    expect(answer.status).toBe(400);
    // The answer quotes it (the caller sent it); the log must not.
    expect(answer.text).toContain(secret);
    const [record] = out.lines.map((line) => JSON.parse(line) as Record<string, any>);
    expect(record!.error).toMatchObject({ code: '14000', detail: "Grant type '[REDACTED]' is not supported; use client_credentials.", pointer: '/grant_type' });
    expect(out.lines.join('\n')).not.toContain(secret);
  });
});

describe('the access line for people (LOG_FORMAT=pretty)', () => {
  it('is one line per request: time, method, path, status, ms and client, and why a failed one failed', async () => {
    const out = sink();
    const sandbox = await testSandbox({ logger: createLogger('info', 'pretty', out) });
    const token = await sandbox.token();
    out.lines.length = 0;
    await fiveRequests(sandbox, token);
    expect(out.lines).toHaveLength(5);
    const [ok, body, query, header, path] = out.lines.map((line) => line.replace(/ \d+(\.\d+)? ms /, ' 1.5 ms '));
    expect(ok).toMatch(/^\d\d:\d\d:\d\d GET \/carriers 200 1\.5 ms sandbox-client$/);
    expect(body).toMatch(
      /^\d\d:\d\d:\d\d POST \/shipments 400 1\.5 ms sandbox-client {2}10003 Invalid JSON Schema: '\w+' is required\. \(pointer \/data\/attributes\/\w+\) \(and \d+ more\)$/,
    );
    expect(query).toMatch(
      /GET \/carriers 400 1\.5 ms sandbox-client {2}10003 Invalid JSON Schema: Unknown page parameter 'page\[numbr\]'\. Lists take page\[number\] and page\[size\]\. \(parameter page\[numbr\]\)$/,
    );
    // Refused after the token is looked at (401 comes first): its client is named.
    expect(header).toMatch(/GET \/carriers 406 1\.5 ms sandbox-client {2}10004 Invalid Request Header: .* \(header Accept\)$/);
    expect(path).toMatch(
      /^\d\d:\d\d:\d\d GET \/nowhere 404 1\.5 ms {2}10000 Not Found: Nothing is served at \/nowhere\. GET \/openapi\.json lists every endpoint\.$/,
    );
    // No colour unless the destination is a terminal.
    expect(out.lines.join('')).not.toContain('\x1b[');
  });

  it('colours the status and the error on a terminal', () => {
    const line = consoleLine(
      { level: 30, time: 0, method: 'GET', path: '/x', status: 404, ms: 1, error: { code: '10000', title: 'Not Found', detail: 'd' } },
      true,
    );
    expect(line).toContain('\x1b[33m404\x1b[0m');
    expect(line).toContain('\x1b[33m10000 Not Found: d\x1b[0m');
  });

  it('shows any other record by its level, message, the fields the message does not say, and a stack below', () => {
    const time = new Date(2026, 0, 2, 3, 4, 5).getTime();
    expect(
      consoleLine({
        level: 30,
        time,
        signal: 'SIGTERM',
        data: '/d/sandbox.json',
        msg: 'parcel-sandbox stopped on SIGTERM; data file written: /d/sandbox.json',
      }),
    ).toBe('03:04:05 parcel-sandbox stopped on SIGTERM; data file written: /d/sandbox.json');
    const error = consoleLine({
      level: 50,
      time,
      method: 'GET',
      url: '/a b',
      err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at f (x.ts:1:2)' },
      msg: 'unexpected error',
    });
    expect(error.split('\n')).toEqual(['03:04:05 ERROR unexpected error method=GET url="/a b"', '    Error: boom', '        at f (x.ts:1:2)']);
  });
});

describe('the log level', () => {
  it('writes the lines at and above it, in the format asked for, and nothing below it', () => {
    const json = sink();
    const warn = createLogger('warn', 'json', json);
    expect([warn.isLevelEnabled('debug'), warn.isLevelEnabled('info'), warn.isLevelEnabled('warn'), warn.isLevelEnabled('error')]).toEqual([
      false,
      false,
      true,
      true,
    ]);
    warn.debug({ job: 'a' }, 'not written');
    warn.info({ job: 'b' }, 'not written either');
    expect(json.lines).toEqual([]);
    warn.warn({ job: 'c' }, 'written');
    warn.error({ job: 'd' });
    expect(json.lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ level: 40, job: 'c', msg: 'written' }),
      expect.objectContaining({ level: 50, job: 'd' }),
    ]);
    // A record written without a message has none (not the text 'undefined').
    expect(JSON.parse(json.lines[1]!)).not.toHaveProperty('msg');

    const silent = sink();
    const quiet = createLogger('silent', 'pretty', silent);
    quiet.error({ job: 'e' }, 'never written');
    expect(quiet.isLevelEnabled('error')).toBe(false);
    expect(silent.lines).toEqual([]);
  });
});
