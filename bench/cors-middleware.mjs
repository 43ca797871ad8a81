#!/usr/bin/env node
/**
 * Why src/http/cors.ts is not hono's `cors()`: serves one JSON answer three ways and measures
 * each with autocannon, in turns (three rounds), on this machine.
 *
 *   node bench/cors-middleware.mjs
 *
 * - `none`: no CORS headers (the ceiling);
 * - `after`: headers set on the handler's response after it is made, as src/http/cors.ts does;
 * - `hono`: hono's `cors()`, which sets them on `c.res` before the handler runs, so Hono makes a
 *   placeholder Response and copies its headers into the handler's one on every request.
 *
 * Measured 2026-11-26 on the 2-core VM with other work running (figures move with the load, the
 * order does not): none 42-81k/s, after 28-61k/s, hono 11-18k/s. hono's way costs ~40 us more per
 * request; GET /shipments/{id} (~50 us per request) would fall under its target of half the bare
 * Hono server's rate (bench/README.md), so the sandbox keeps its own few lines.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import autocannon from 'autocannon';
import { Hono } from 'hono';
import { cors } from 'hono/cors';

const CORS = { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'Location, Idempotency-Key' };
const body = JSON.stringify({
  data: { type: 'shipments', id: 'x'.repeat(36), attributes: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, 'v'.repeat(20)])) },
});

function server(variant) {
  const app = new Hono();
  if (variant === 'hono') app.use('*', cors({ origin: '*', exposeHeaders: ['Location', 'Idempotency-Key'], maxAge: 600 }));
  if (variant === 'after') {
    app.use('*', async (c, next) => {
      await next();
      for (const [name, value] of Object.entries(CORS)) c.res.headers.set(name, value);
    });
  }
  app.get('/shipments/:id', () => new Response(body, { headers: { 'content-type': 'application/vnd.api+json' } }));
  serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => process.stdout.write(`listening ${info.port}\n`));
}

async function measure(variant) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), variant], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = await once(child.stdout, 'data');
  const port = /listening (\d+)/.exec(String(chunk))[1];
  const result = await autocannon({ url: `http://127.0.0.1:${port}/shipments/1`, connections: 10, duration: 4 });
  child.kill();
  return Math.round(result.requests.average);
}

if (process.argv[2]) server(process.argv[2]);
else {
  for (let round = 1; round <= 3; round += 1) {
    const figures = [];
    for (const variant of ['none', 'after', 'hono']) figures.push(`${variant} ${await measure(variant)}/s`);
    console.log(`round ${round}: ${figures.join(', ')}`);
  }
}
