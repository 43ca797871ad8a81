import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseSet, fixturesFolder } from '../src/fixtures/base-set.js';
import { schemaProblems } from '../src/fixtures/check-schema.js';
import { GENERATOR_SCHEMA_FILE, fixtureJsonSchemas, sectionSchemaFile } from '../src/fixtures/json-schemas.js';
import { sectionNames, type SectionName } from '../src/fixtures/sections.js';
import { FIRST_DEMO_ORDER } from '../src/domain/returns/orders.js';
import { FIXTURE_EPOCH } from '../src/fixtures/people.js';

/*
 * The base set as files: fixtures/ at the top of the package, every file with its JSON Schema
 * (fixtures/schema/, written by `npm run fixtures:schemas` from the zod schemas), and every file
 * valid by it.
 */

const folder = fixturesFolder();
const dataFiles = readdirSync(folder).filter((name) => name.endsWith('.json'));
const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

describe('fixtures/', () => {
  it('is found beside the package, not the working directory', () => {
    expect(folder).toBe(join(new URL('..', import.meta.url).pathname, 'fixtures'));
  });

  it('has committed JSON Schemas that are what the zod schemas make (npm run fixtures:schemas writes them)', () => {
    const made = fixtureJsonSchemas();
    const committed = readdirSync(join(folder, 'schema')).sort();
    expect(committed).toEqual(Object.keys(made).sort());
    for (const [name, schema] of Object.entries(made)) expect(json(join(folder, 'schema', name)), name).toEqual(schema);
  });

  it.each(dataFiles)('%s names its schema and is valid by it', (name) => {
    const data = json(join(folder, name));
    const section = name.replace(/\.json$/, '') as SectionName;
    const schema = name === 'generator.json' ? GENERATOR_SCHEMA_FILE : sectionSchemaFile(section);
    expect(data.$schema).toBe(`./schema/${schema}`);
    if (name === 'generator.json') return;
    expect(sectionNames).toContain(section);
    expect(schemaProblems(`fixtures/${name}`, data, section)).toEqual([]);
  });

  it('holds the epoch and the first demo order number the rules use', () => {
    const { generator } = baseSet();
    expect(generator.epoch).toBe(FIXTURE_EPOCH);
    expect(generator.first_demo_order).toBe(FIRST_DEMO_ORDER);
    expect(new Date(generator.epoch * 1000).toISOString()).toBe('2026-01-01T00:00:00.000Z');
  });

  it('ships in the package', () => {
    const manifest = json(new URL('../package.json', import.meta.url).pathname) as { files: string[] };
    expect(manifest.files).toContain('fixtures');
  });
});
