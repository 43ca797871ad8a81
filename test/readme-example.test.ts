import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { settings } from '../src/config.js';
// Runs the example's own tests as part of this file, so they pass or fail with the suite.
import '../examples/sandbox.test.js';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8').replace(/\r\n/g, '\n');

/** The example as an integrator writes it: importing the package instead of the source. */
function asPublished(source: string): string {
  return source.replace(`from '../src/index.js';`, `from 'parcel-sandbox';`).trimEnd();
}

describe('the README example', () => {
  const example = read('../examples/sandbox.test.ts');

  it("imports only vitest and the package entry, so it runs unchanged in an integrator's project", () => {
    const imports = [...example.matchAll(/^import .* from '([^']+)';$/gm)].map((match) => match[1]);
    expect(imports).toEqual(['vitest', '../src/index.js']);
    expect(asPublished(example)).toContain(`from 'parcel-sandbox';`);
  });

  it('is in README.md verbatim, in a ```ts block', () => {
    const readme = read('../README.md');
    const block = '```ts\n' + asPublished(example) + '\n```';
    const hint = "README.md lacks examples/sandbox.test.ts in a ```ts block (with `from 'parcel-sandbox'` as its import); paste it in verbatim";
    expect(readme.includes(block), hint).toBe(true);
  });
});

describe('the start command', () => {
  it('is the same in the Docker image as in npm start: node, the same flags, the bundled server', () => {
    const start = (JSON.parse(read('../package.json')) as { scripts: { start: string } }).scripts.start.split(' ');
    // The entry point, not a CMD: words after the image name (`docker run parcel-sandbox --help`)
    // are then the server's options, where they would replace a CMD and be run as a program.
    const entrypoint = /^ENTRYPOINT (\[.*\])$/m.exec(read('../Dockerfile'))?.[1];
    expect(entrypoint, 'the Dockerfile has an exec-form ENTRYPOINT').toBeDefined();
    expect(read('../Dockerfile')).not.toMatch(/^CMD /m);
    expect(JSON.parse(entrypoint!)).toEqual(start);
    expect(start[0]).toBe('node');
    expect(start.at(-1)).toBe('dist/server/main.js');
  });
});

describe('compose.yaml', () => {
  const text = read('../compose.yaml');
  type Service = {
    build?: string;
    image?: string;
    environment: Record<string, string>;
    ports?: string[];
    volumes?: string[];
    healthcheck?: { test: string[] };
    depends_on?: Record<string, { condition: string }>;
  };
  const compose = parse(text) as { services: Record<string, Service>; volumes: Record<string, unknown> };

  it('runs the sandbox from the Dockerfile on port 8080 with a named data volume and a health check', () => {
    const sandbox = compose.services.sandbox!;
    expect(sandbox.build).toBe('.');
    expect(sandbox.ports).toContain('127.0.0.1:8080:8080');
    expect(sandbox.environment).toMatchObject({ HOST: '0.0.0.0', PORT: '8080', DATA_FILE: '/data/sandbox.json' });
    expect(sandbox.volumes).toContain('sandbox-data:/data');
    expect(Object.keys(compose.volumes)).toContain('sandbox-data');
    expect(sandbox.healthcheck!.test.join(' ')).toContain('http://127.0.0.1:8080/health');
  });

  it('sets only variables the sandbox knows', () => {
    const known = new Set(settings.map((setting) => setting.env));
    const commented = [...text.matchAll(/^\s*#\s*([A-Z_]+): /gm)]
      .map((match) => match[1]!)
      .filter((name) => !name.startsWith('SANDBOX_CLIENT') && name !== 'SANDBOX_URL');
    for (const name of [...Object.keys(compose.services.sandbox!.environment), ...commented]) expect(known, name).toContain(name);
  });

  it('has a commented test-runner service that is valid once uncommented', () => {
    const lines = text.split('\n');
    const first = lines.indexOf('  # tests:');
    expect(first).toBeGreaterThan(0);
    const block: string[] = [];
    for (const line of lines.slice(first)) {
      if (!line.startsWith('  # ')) break;
      block.push('  ' + line.slice(4));
    }
    const runner = (parse(`services:\n${block.join('\n')}\n`) as { services: Record<string, Service> }).services.tests!;
    expect(runner.environment).toMatchObject({ SANDBOX_URL: 'http://sandbox:8080', PUBLIC_URL: 'http://sandbox:8080' });
    expect(runner.depends_on).toEqual({ sandbox: { condition: 'service_healthy' } });
  });
});
