#!/usr/bin/env node
/**
 * The baseline: a bare Hono app on @hono/node-server (the same versions the sandbox uses) that
 * answers every GET with one fixed JSON:API document. It sets the ceiling a single Node process
 * on this machine reaches with this stack, so the sandbox's figures are read as ratios of it.
 *
 *   node bench/baseline.mjs <port>     prints "listening <port>" once it accepts connections
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const document = {
  data: {
    type: 'shipments',
    id: '00000000-0000-4000-8000-000000000000',
    attributes: { description: 'Order 1001', customer_reference: 'order-1001', physical_properties: { weight: 1500 } },
  },
};

const app = new Hono();
app.get('*', (c) => c.json(document));

const port = Number(process.argv[2] ?? 0);
const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, (info) => process.stdout.write(`listening ${info.port}\n`));
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
