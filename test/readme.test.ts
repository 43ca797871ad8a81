import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { settings } from '../src/config.js';
import { defaultClients } from '../src/fixtures/tenancy.js';
import { allEndpoints } from '../src/app.js';
import { testSandbox } from './support/app.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const ci = readFileSync(new URL('../.ci/run', import.meta.url), 'utf8');

describe('README.md, the front door', () => {
  it('documents every setting by its option and its variable', () => {
    for (const setting of settings) {
      expect(readme, setting.env).toContain(`\`${setting.env}`);
      expect(readme, setting.flag).toContain(`\`--${setting.flag}`);
    }
  });

  it('lists the default credentials', () => {
    for (const client of defaultClients) expect(readme).toContain(`| \`${client.id}\` | \`${client.secret}\` |`);
  });

  it('shows the two commands, and CI runs exactly the test command', () => {
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm ci && npm test');
    expect(ci).toContain('npm ci && npm test');
  });

  it("counts the seeded catalogue as the seed holds it (the opening's carriers, services and rates)", async () => {
    const sandbox = await testSandbox();
    const token = await sandbox.token();
    const total = async (path: string) => (await sandbox.get(`${path}?page[size]=1`, token)).body.meta.total_records as number;
    const [carriers, services, rates] = [await total('/carriers'), await total('/services'), await total('/service-rates')];
    expect(readme).toContain(`${carriers} carriers, ${services} services over`);
    expect(readme).toContain(`${rates} service rates`);
  });

  it('documents every sandbox control endpoint', () => {
    const control = allEndpoints().filter((endpoint) => endpoint.path.startsWith('/_sandbox/'));
    for (const endpoint of control) expect(readme, endpoint.path).toContain(`${endpoint.method.toUpperCase()} ${endpoint.path}`);
  });
});
