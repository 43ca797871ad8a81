#!/usr/bin/env node
/**
 * `/health` latency while hostile bodies arrive: run in its own process, like the load driver.
 *
 *   node bench/hostile.mjs '<json>'
 *
 * with { url, token, senders, bytes, seconds, pauseMs, only? }. First probes GET /health alone for 1 s
 * (idle), then, for `seconds`, sends bursts of `senders` bodies of `bytes` at once (each on its
 * own connection; the next burst `pauseMs` after the last body of this one was answered), while
 * probing GET /health every 5 ms on a connection of its own. The bodies come in five shapes
 * (deep `[[[...`, a wide object of a million members, a string of `\u0000` escapes, a long `tags`
 * array, a million unknown members) and go to six targets, anonymous and with the bench client's
 * token, with a Content-Length or chunked; within a burst the senders take the next shape and
 * target in turn, so every burst mixes them and two bursts cover them all. Each answer is checked:
 * a 4xx status with a JSON:API errors document. Prints one JSON line:
 * { idle: {...}, under_attack: {...}, hostile: { bursts, sent, statuses, refused_4xx, bad, p50_ms, max_ms } }
 * where each latency summary is { probes, p50_ms, p99_ms, max_ms }, `statuses` counts
 * `<target> <shape> <status>` and `bad` lists answers that were not a 4xx errors document.
 */
import { request } from 'node:http';

const config = JSON.parse(process.argv[2] ?? '{}');
const target = new URL(config.url);

/** `bytes` of text made of `head`, then `unit(i)` for i = 0, 1, ... (cut where the bytes end), then `tail` when it fits. */
function shaped(head, unit, tail = '') {
  const parts = [head];
  let length = head.length;
  for (let i = 0; length < config.bytes - tail.length; i++) {
    const piece = unit(i);
    parts.push(piece);
    length += piece.length;
  }
  return Buffer.from((parts.join('').slice(0, config.bytes - tail.length) + tail).padEnd(config.bytes, ' '));
}

const shapes = {
  deep: Buffer.alloc(config.bytes, '['.charCodeAt(0)),
  wide: shaped('{', (i) => `"m${i}":0,`, '"z":0}'),
  escaped: shaped('{"outcome":"', () => '\\u0000', '"}'),
  'long array': shaped('{"data":{"type":"shipments","attributes":{"tags":[', () => '"a",', '"a"]}}}'),
  'unknown members': shaped('{"data":{"type":"shipments","attributes":{', (i) => `"u${i}":0,`, '"z":0}}}'),
};

const targets = [
  { name: 'anonymous POST /return-portal/checkout', path: '/return-portal/checkout/x.y', token: false, chunked: false },
  { name: 'anonymous POST /access-token (chunked)', path: '/access-token', token: false, chunked: true },
  { name: 'anonymous POST /shipments', path: '/shipments', token: false, chunked: false },
  { name: 'token POST /shipments', path: '/shipments', token: true, chunked: false },
  { name: 'token POST /shops', path: '/shops', token: true, chunked: false },
  { name: 'token POST /shops (chunked)', path: '/shops', token: true, chunked: true },
];
// `only` (a substring of target names) narrows the targets, to see what each costs.
const combos = targets.filter((to) => !config.only || to.name.includes(config.only)).flatMap((to) => Object.keys(shapes).map((shape) => ({ to, shape })));

function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] * 100) / 100;
}

function summary(latencies) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    probes: sorted.length,
    p50_ms: percentile(sorted, 0.5),
    p99_ms: percentile(sorted, 0.99),
    max_ms: sorted.length ? Math.round(sorted.at(-1) * 100) / 100 : null,
  };
}

/** One request on a fresh connection; resolves with its status, body and time (ms), whatever happens. */
function send(method, path, headers, payload, chunked) {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = request({ host: target.hostname, port: target.port, method, path, headers, agent: false }, (res) => {
      const parts = [];
      res.on('data', (part) => parts.push(part));
      res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(parts).toString(), ms: performance.now() - started }));
      res.on('error', () => resolve({ status: 'error', ms: performance.now() - started }));
    });
    req.on('error', (error) => resolve({ status: error.code ?? 'error', ms: performance.now() - started }));
    if (!payload) return req.end();
    if (!chunked) return req.end(payload);
    // Chunked: 64 KiB at a time, as a slow client would stream it.
    let offset = 0;
    const next = () => {
      while (offset < payload.length) {
        const piece = payload.subarray(offset, offset + 64 * 1024);
        offset += piece.length;
        if (!req.write(piece)) return req.once('drain', next);
      }
      req.end();
    };
    next();
  });
}

/** Whether an answer is a refusal in the errors document: a 4xx whose body is `{errors: [...]}` with that status. */
function isRefusal({ status, text }) {
  if (typeof status !== 'number' || status < 400 || status > 499) return false;
  try {
    const errors = JSON.parse(text).errors;
    return Array.isArray(errors) && errors.length > 0 && errors[0].status === String(status);
  } catch {
    return false;
  }
}

async function probeHealth(until) {
  const latencies = [];
  while (performance.now() < until) {
    const { status, ms } = await send('GET', '/health', {}, undefined, false);
    if (status === 200) latencies.push(ms);
    await new Promise((done) => setTimeout(done, 5));
  }
  return latencies;
}

const idle = summary(await probeHealth(performance.now() + 1000));
const until = performance.now() + config.seconds * 1000;
const statuses = {};
const bad = [];
const hostileTimes = [];
let sent = 0;
let refused = 0;
let bursts = 0;
const attack = (async () => {
  while (performance.now() < until) {
    const first = bursts++ * config.senders;
    await Promise.all(
      Array.from({ length: config.senders }, async (_, i) => {
        const { to, shape } = combos[(first + i) % combos.length];
        const body = shapes[shape];
        const headers = {
          'content-type': 'application/json',
          ...(to.chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(body.length) }),
          ...(to.token ? { authorization: `Bearer ${config.token}` } : {}),
        };
        const answer = await send('POST', to.path, headers, body, to.chunked);
        sent += 1;
        const key = `${to.name} ${shape} ${answer.status}`;
        statuses[key] = (statuses[key] ?? 0) + 1;
        if (isRefusal(answer)) refused += 1;
        else if (bad.length < 20) bad.push(`${to.name} ${shape}: ${answer.status} ${(answer.text ?? '').slice(0, 120)}`);
        hostileTimes.push(answer.ms);
      }),
    );
    await new Promise((done) => setTimeout(done, config.pauseMs ?? 0));
  }
})();
const attacked = summary(await probeHealth(until));
await attack;
const hostile = summary(hostileTimes);
process.stdout.write(
  `${JSON.stringify({ idle, under_attack: attacked, hostile: { bursts, sent, statuses, refused_4xx: refused, bad, p50_ms: hostile.p50_ms, max_ms: hostile.max_ms } })}\n`,
);
