import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { parse } from 'yaml';
import { readmeBlocks } from './support/readme.js';
import { cliEntry, startServer, type RunningServer } from './support/server.js';

/*
 * README.md's CI recipe ("A report for CI", the `ci-compose` and `ci-workflow` blocks), run as a
 * CI job runs it: the compose file is written into a new project next to a test job (a scripted
 * client session behind `npm ci && npm test`), and the workflow's steps run in order in bash.
 *
 * - With a container runtime (docker or podman, each with compose) the compose file builds the
 *   image from this checkout and the steps run as written.
 * - Without one, the sandbox runs as `npm start` runs it, from the folder the image holds
 *   (scripts/runtime-tree.mjs), checked with the compose file's own health check; the report step
 *   runs its command in that folder instead of in the container (`docker compose exec` is all
 *   that changes), on a free port in place of 8080.
 */

type Json = Record<string, any>;
type Step = { name?: string; run?: string; uses?: string; env?: Record<string, string>; with?: Record<string, string> };

const root = fileURLToPath(new URL('..', import.meta.url));
const blocks = readmeBlocks();
const composeBlock = blocks.find((block) => block.lang === 'yaml' && block.flags.includes('ci-compose'));
const workflowBlock = blocks.find((block) => block.lang === 'yaml' && block.flags.includes('ci-workflow'));

/** The runtime a CI job would have: one whose daemon answers and that has compose. */
function containerRuntime(): string | undefined {
  for (const tool of ['docker', 'podman']) {
    const answers = (args: string[]) => spawnSync(tool, args, { stdio: 'ignore', timeout: 30_000 }).status === 0;
    if (answers(['info']) && answers(['compose', 'version'])) return tool;
  }
  return undefined;
}
const runtime = containerRuntime();
if (!runtime) console.warn('test/ci-recipe.e2e.test.ts: no container runtime with compose here: the recipe runs against the sandbox as npm start runs it.');

/** The test job: a client session that calls production's operations, one of them with a deprecated parameter, and is refused once on purpose. */
const CLIENT_SESSION = `
const base = process.env.SANDBOX_URL;
const answer = await fetch(base + '/access-token', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ grant_type: 'client_credentials', client_id: process.env.SANDBOX_CLIENT_ID, client_secret: process.env.SANDBOX_CLIENT_SECRET, scope: '*' }),
});
const { access_token: token } = await answer.json();
const api = (path, init = {}) => fetch(base + path, { ...init, headers: { authorization: 'Bearer ' + token, 'content-type': 'application/vnd.api+json' } });
async function expectStatus(response, status) {
  if (response.status !== status) {
    console.error(response.url, 'answered', response.status, 'not', status, await response.text());
    process.exit(1);
  }
  return response.json();
}
const shops = await expectStatus(await api('/shops'), 200);
const shop = shops.data.find((s) => s.attributes.sender_address.country_code === 'NL');
await expectStatus(await api('/carriers'), 200);
const recipient = { first_name: 'Anna', last_name: 'de Vries', street_1: 'Kalverstraat', street_number: 92, postal_code: '1012 PH', city: 'Amsterdam', country_code: 'NL' };
const attributes = { recipient_address: recipient, sender_address: shop.attributes.sender_address, return_address: shop.attributes.return_address, physical_properties: { weight: 1500 } };
const body = { data: { type: 'shipments', attributes, relationships: { shop: { data: { type: 'shops', id: shop.id } } } } };
await expectStatus(await api('/shipments', { method: 'POST', body: JSON.stringify(body) }), 201);
await expectStatus(await api('/shipments?filter[date_from]=2020-01-01'), 200);
await expectStatus(await api('/shipments', { method: 'POST', body: JSON.stringify({ data: { type: 'shipments', attributes: {} } }) }), 400);
console.log('client session done');
`;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function bash(script: string, cwd: string, env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('bash', ['-c', script], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // Bounded: a step that hangs fails the test instead of holding it.
  const timer = setTimeout(() => child.kill('SIGKILL'), 600_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

describe('README.md, A report for CI', () => {
  it('has the compose file and the workflow as YAML blocks', () => {
    expect(composeBlock, 'a ```yaml ci-compose block').toBeDefined();
    expect(workflowBlock, 'a ```yaml ci-workflow block').toBeDefined();
    const service = parse(composeBlock!.code).services.sandbox;
    expect(service.healthcheck.test[0]).toBe('CMD');
    const steps: Step[] = parse(workflowBlock!.code).jobs.integration.steps;
    expect(steps.map((step) => step.run ?? step.uses)).toEqual([
      'actions/checkout@v4',
      expect.stringContaining('up -d --wait sandbox'),
      'npm ci && npm test',
      expect.stringContaining('report --url'),
      'actions/upload-artifact@v4',
    ]);
  });
});

describe.skipIf(!composeBlock || !workflowBlock)('the CI recipe of README.md, run end to end', () => {
  let project: string;
  let work: string;
  let app: string;
  let server: RunningServer | undefined;
  let port = 8080;
  const service: Json = composeBlock ? parse(composeBlock.code).services.sandbox : {};
  const steps: Step[] = workflowBlock ? parse(workflowBlock.code).jobs.integration.steps : [];
  const local = (text: string) => text.replaceAll('127.0.0.1:8080', `127.0.0.1:${port}`);

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'parcel-sandbox-ci-'));
    project = join(work, 'project');
    app = join(work, 'app');
    await bash(`mkdir -p ${JSON.stringify(project)}`, work);
    // The project under test: its compose file, and a test job behind npm test.
    const compose = parse(composeBlock!.code);
    if (runtime) compose.services.sandbox.build = root;
    else port = await freePort();
    await writeFile(join(project, 'compose.sandbox.yaml'), JSON.stringify(compose, null, 2));
    await writeFile(join(project, 'client-session.mjs'), CLIENT_SESSION);
    const pkg = { name: 'ci-project', version: '1.0.0', private: true, type: 'module', scripts: { test: 'node client-session.mjs' } };
    await writeFile(join(project, 'package.json'), JSON.stringify(pkg, null, 2));
    const lock = { name: 'ci-project', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': { name: 'ci-project', version: '1.0.0' } } };
    await writeFile(join(project, 'package-lock.json'), JSON.stringify(lock, null, 2));
    if (!runtime) {
      // The folder the image holds, made as its Dockerfile makes it, from this run's bundle of the
      // sources (test/global-setup.ts runs the same scripts/bundle.mjs): bundling again was ~0.7 s of CPU.
      execFileSync(process.execPath, ['scripts/runtime-tree.mjs', '--server', dirname(cliEntry()[0]!), '--out', app], { cwd: root, stdio: 'pipe' });
    }
  });

  afterAll(async () => {
    await server?.stop();
    if (runtime && project) await bash(`${runtime} compose -f compose.sandbox.yaml down -v`, project);
    if (work) await rm(work, { recursive: true, force: true });
  });

  it(
    'starts the sandbox, runs the tests, writes a JUnit report that fails only for the kinds named, and has it for the upload',
    { timeout: 900_000 },
    async () => {
      const results: { step: string; code: number | null; stderr: string }[] = [];
      for (const step of steps) {
        if (step.uses === 'actions/checkout@v4') continue; // the project is there already
        if (step.uses?.startsWith('actions/upload-artifact')) {
          // What the upload takes is there, and it is JUnit the schema accepts.
          const file = join(project, step.with!.path!);
          expect(existsSync(file), `${step.with!.path} for the upload`).toBe(true);
          const xml = readFileSync(file, 'utf8');
          const schema = readFileSync(new URL('./junit.xsd', import.meta.url), 'utf8');
          const valid = await validateXML({ xml: [{ fileName: 'sandbox-report.xml', contents: xml }], schema: [{ fileName: 'junit.xsd', contents: schema }] });
          expect(valid.errors.map((error) => error.message)).toEqual([]);
          const cases = [...xml.matchAll(/<testcase classname="([^"]+)" name="([^"]+)"/g)].map(([, , name]) => name);
          expect(cases).toEqual(expect.arrayContaining(['POST /access-token', 'GET /shops', 'GET /carriers', 'POST /shipments', 'GET /shipments']));
          const failed = [...xml.matchAll(/name="([^"]+)" time="0">\n\s+<failure type="([^"]+)"/g)].map(([, name, type]) => `${name}: ${type}`);
          // --fail-on deprecated,5xx: the deprecated parameter fails GET /shipments; the refusal on purpose fails nothing.
          expect(failed).toEqual(['GET /shipments: deprecated']);
          continue;
        }
        let script = step.run!;
        const env = step.env ?? {};
        if (!runtime) {
          script = local(script);
          for (const name of Object.keys(env)) env[name] = local(env[name]!);
          if (/compose .* up -d --wait sandbox/.test(script)) {
            // The container's command, as npm start runs it, with the service's environment.
            const start = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
              .scripts.start.split(' ')
              .slice(1) as string[];
            const environment = Object.fromEntries(
              Object.entries(service.environment as Record<string, string>).map(([name, value]) => [name, local(String(value))]),
            );
            server = await startServer(
              { ...environment, PORT: String(port), HOST: '127.0.0.1' },
              [],
              start.map((arg) => (arg.startsWith('dist/') ? join(app, arg) : arg)),
            );
            // The compose file's health check, run as the runtime would run it (CMD form).
            const [form, command, ...args] = (service.healthcheck.test as string[]).map(local);
            expect(form).toBe('CMD');
            const health = spawnSync(command!, args, { timeout: 30_000 });
            results.push({ step: step.name ?? script, code: health.status, stderr: health.stderr.toString() });
            continue;
          }
          // In the container the report runs in /app; here, in the folder the image holds.
          script = script
            .replace(/\S+ compose -f \S+ exec -T sandbox\s+/, '')
            .replace('node dist/server/main.js', `node ${JSON.stringify(join(app, 'dist/server/main.js'))}`);
        } else {
          script = script.replace(/^docker /, `${runtime} `);
        }
        const outcome = await bash(script, project, env);
        results.push({ step: step.name ?? script, code: outcome.code, stderr: outcome.stderr });
      }
      expect(results.map(({ step, code }) => `${step}: ${code}`)).toEqual([
        'Start the sandbox, wait until it is healthy: 0',
        'Integration tests against the sandbox: 0',
        // Exit 1: an operation fails for a kind --fail-on names, and the job fails with it.
        "What the tests did against production's contract: 1",
      ]);
      expect(results[2]!.stderr).toContain('1 operation fails on deprecated, 5xx: GET /shipments');
    },
  );
});
