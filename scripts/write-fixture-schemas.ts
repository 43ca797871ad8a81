/** Regenerates the committed JSON Schemas of fixture files (fixtures/schema/) from the zod schemas of src/fixtures/pack-schema.ts. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fixtureJsonSchemas } from '../src/fixtures/json-schemas.js';

const folder = new URL('../fixtures/schema/', import.meta.url);
mkdirSync(folder, { recursive: true });
for (const [name, schema] of Object.entries(fixtureJsonSchemas())) writeFileSync(new URL(name, folder), `${JSON.stringify(schema, null, 2)}\n`);
console.log(`wrote ${folder.pathname}`);
