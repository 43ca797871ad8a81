import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import { CompiledValidators } from './support/contract/compiled-validators.js';

// The test harness's own cache of compiled contract validators (test/support/contract): what it
// loads must judge as ajv's compile does, and a change of what a schema refers to must not load it.
describe('the contract checks’ compiled validators', () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));
  const ajv = () => {
    const instance = new Ajv2020({ strict: false, allErrors: true, inlineRefs: false, code: { source: true } });
    instance.addSchema({ $id: 'parts.json', $defs: { weight: { type: 'integer', minimum: 1 } } });
    return instance;
  };
  const schema = { type: 'object', required: ['weight'], properties: { weight: { $ref: 'parts.json#/$defs/weight' } } };

  it('loads a kept validator that accepts and refuses as the compiled one did, with its errors', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'contract-validators-'));
    dirs.push(folder);
    const first = new CompiledValidators(ajv(), 'parts v1', folder).compile(schema);
    const kept = new CompiledValidators(ajv(), 'parts v1', folder).compile(schema);
    expect(kept).not.toBe(first);
    for (const validate of [first, kept]) {
      expect(validate({ weight: 5 })).toBe(true);
      expect(validate({ weight: 0 })).toBe(false);
      expect(validate.errors?.[0]).toMatchObject({ instancePath: '/weight', keyword: 'minimum' });
    }
  });

  it('compiles again when what the schemas refer to changed, and keeps only the folders used last', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'contract-validators-'));
    dirs.push(folder);
    const contexts = ['parts v1', 'parts v2', 'parts v3', 'parts v4', 'parts v5', 'parts v6'];
    for (const context of contexts) new CompiledValidators(ajv(), context, folder).compile(schema);
    expect(await readdir(folder)).toHaveLength(4);
  });
});
