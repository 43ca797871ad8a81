#!/usr/bin/env node
/**
 * The baseline: a bare Hono app on @hono/node-server (the same versions the sandbox uses) that
 * answers every GET with one fixed JSON document. It sets the ceiling a single Node process on
 * this machine reaches with this stack, so the sandbox's figures are read as ratios of it.
 *
 *   node bench/baseline.mjs <port> [document.json]
 *
 * With a document file it answers with that document (the bench passes the sandbox's own answer
 * to GET /shipments/{id}, so both send the same bytes); without one, with a tiny document.
 * Prints "listening <port>" once it accepts connections.
 */
import { readFileSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const tiny = { data: { type: 'shipments', id: '00000000-0000-4000-8000-000000000000', attributes: { description: 'Order 1001' } } };
const document = process.argv[3] ? JSON.parse(readFileSync(process.argv[3], 'utf8')) : tiny;

const app = new Hono();
app.get('*', (c) => c.json(document));

const port = Number(process.argv[2] ?? 0);
const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, (info) => process.stdout.write(`listening ${info.port}\n`));
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
