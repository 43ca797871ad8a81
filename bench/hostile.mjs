#!/usr/bin/env node
/**
 * `/health` latency while hostile bodies arrive: run in its own process, like the load driver.
 *
 *   node bench/hostile.mjs '<json>'
 *
 * with { url, token, senders, bytes, seconds, pauseMs }. First probes GET /health alone for 1 s (idle),
 * then, for `seconds`, sends bursts of `senders` bodies of `bytes` of `[[[...` at once (each on
 * its own connection; the next burst `pauseMs` after the last body of this one was answered), while probing
 * GET /health every 5 ms on a connection of its own. Each burst goes, in turn, to
 * POST /access-token (no token needed) with a Content-Length, to POST /access-token without one
 * (chunked), and to POST /shipments with the bench client's token and a Content-Length (a body
 * the sandbox starts reading). Prints one JSON line:
 * { idle: {...}, under_attack: {...}, hostile: { bursts, sent, statuses, p50_ms, max_ms } } where
 * each latency summary is { probes, p50_ms, p99_ms, max_ms }.
 */
import { request } from 'node:http';

const config = JSON.parse(process.argv[2] ?? '{}');
const target = new URL(config.url);
const body = Buffer.alloc(config.bytes, '['.charCodeAt(0));

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

/** One request on a fresh connection; resolves with its status and time (ms), whatever happens. */
function send(method, path, headers, payload, chunked) {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = request({ host: target.hostname, port: target.port, method, path, headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - started }));
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

async function probeHealth(until) {
  const latencies = [];
  while (performance.now() < until) {
    const { status, ms } = await send('GET', '/health', {}, undefined, false);
    if (status === 200) latencies.push(ms);
    await new Promise((done) => setTimeout(done, 5));
  }
  return latencies;
}

const variants = [
  { path: '/access-token', headers: { 'content-type': 'application/json', 'content-length': String(body.length) }, chunked: false },
  { path: '/access-token', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' }, chunked: true },
  {
    path: '/shipments',
    headers: { 'content-type': 'application/vnd.api+json', 'content-length': String(body.length), authorization: `Bearer ${config.token}` },
    chunked: false,
  },
];

const idle = summary(await probeHealth(performance.now() + 1000));
const until = performance.now() + config.seconds * 1000;
const statuses = {};
const hostileTimes = [];
let sent = 0;
let bursts = 0;
const attack = (async () => {
  while (performance.now() < until) {
    const variant = variants[bursts++ % variants.length];
    await Promise.all(
      Array.from({ length: config.senders }, async () => {
        const { status, ms } = await send('POST', variant.path, variant.headers, body, variant.chunked);
        sent += 1;
        const key = `${variant.path}${variant.chunked ? ' (chunked)' : ''} ${status}`;
        statuses[key] = (statuses[key] ?? 0) + 1;
        hostileTimes.push(ms);
      }),
    );
    await new Promise((done) => setTimeout(done, config.pauseMs ?? 0));
  }
})();
const attacked = summary(await probeHealth(until));
await attack;
const hostile = summary(hostileTimes);
process.stdout.write(
  `${JSON.stringify({ idle, under_attack: attacked, hostile: { bursts, sent, statuses, p50_ms: hostile.p50_ms, max_ms: hostile.max_ms } })}\n`,
);
