import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPdf } from './support/pdf.js';
import { readmeBlocks, type CodeBlock } from './support/readme.js';
import { startServer, type RunningServer } from './support/server.js';

/*
 * README.md's shell commands, run as a reader runs them: in order, in one bash, against a sandbox
 * started from a fresh data directory on a free port. The README's base URL variable, `API`, is
 * set to that server; nothing else in the commands is changed.
 *
 * How README.md marks its shell blocks:
 * - ```sh                  part of the walkthrough; runs, top to bottom, in one shell;
 * - ```sh not-walkthrough  shown, never run here: it installs, builds, starts a server or runs
 *                          docker (this test starts the server itself);
 * - ```sh expect=423,404   a walkthrough block that shows these error answers on purpose.
 * Shell under any other tag (bash, shell, console) fails the test, so no command escapes it by
 * its tag.
 *
 * The commands use `curl -s`, which exits 0 on a 401, so a curl wrapper records the status of
 * every answer and the test fails on each non-2xx that its block does not expect.
 */

const tools = ['bash', 'curl', 'jq'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
if (tools.length > 0) {
  console.warn(`test/readme-walkthrough.e2e.test.ts is SKIPPED: ${tools.join(', ')} missing (.ci/run installs them: apt-get install -y ${tools.join(' ')}).`);
}

const blocks = readmeBlocks();
const walkthrough = blocks.filter((block) => block.lang === 'sh' && !block.flags.includes('not-walkthrough'));
const expected = (block: CodeBlock) => block.flags.flatMap((flag) => (flag.startsWith('expect=') ? flag.slice(7).split(',') : []));

const prelude = `set -euo pipefail
curl() { command curl -w "%{stderr}readme-walkthrough: $README_BLOCK %{http_code} %{method} %{url_effective}\\n" "$@"; }
`;

function script(): string {
  return prelude + walkthrough.map((block, index) => `README_BLOCK=${index}\n# README.md line ${block.line}\n${block.code}\n`).join('\n');
}

function run(file: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('bash', [file], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

describe('README.md', () => {
  it('tags its shell blocks sh, with or without not-walkthrough, and has a walkthrough that starts with the token', () => {
    const untagged = blocks.filter((block) => ['bash', 'shell', 'console', 'zsh'].includes(block.lang)).map((block) => block.line);
    expect(untagged, 'README.md lines of shell blocks under another tag').toEqual([]);
    expect(walkthrough.length).toBeGreaterThanOrEqual(3);
    expect(walkthrough[0]!.code).toMatch(/^API=\$\{API:-http:\/\/127\.0\.0\.1:8080\}$/m);
    expect(walkthrough[0]!.code).toContain('access-token');
  });
});

describe.skipIf(tools.length > 0)('the README walkthrough, in one shell', () => {
  let server: RunningServer;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'parcel-sandbox-readme-'));
    server = await startServer({ DATA_FILE: join(dir, 'data', 'sandbox.json') });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('runs top to bottom against a fresh sandbox, every answer 2xx unless its block expects it', async () => {
    const file = join(dir, 'walkthrough.sh');
    await writeFile(file, script());
    const { code, stdout, stderr } = await run(file, dir, { API: server.url });
    const answers = [...stderr.matchAll(/^readme-walkthrough: (\d+) (\d{3}) (\S+) (\S+)$/gm)].map(([, block, status, method, url]) => ({
      line: walkthrough[Number(block)]!.line,
      status: status!,
      request: `${method} ${url}`,
    }));
    const unexpected = answers.filter(
      (answer) => !answer.status.startsWith('2') && !expected(walkthrough.find((block) => block.line === answer.line)!).includes(answer.status),
    );
    expect(unexpected, `answers README.md does not expect (line: where the block starts)\n${stderr}`).toEqual([]);
    expect(code, `the walkthrough stopped (bash exit ${code}); its script is ${file}\n${stderr}`).toBe(0);

    // Each block got as far as its last command.
    expect(new Set(answers.map((answer) => answer.line))).toEqual(new Set(walkthrough.map((block) => block.line)));
    expect(stdout).toContain('"shipment-registered"');
    expect(stdout).toContain('"shipment-delivered"');
    expect((await readFile(join(dir, 'label.pdf'))).subarray(0, 5).toString()).toBe('%PDF-');
    // The batch flow: three registered shipments' labels on one A4 sheet.
    const [sheet, ...more] = readPdf(await readFile(join(dir, 'labels.pdf')));
    expect(more).toEqual([]);
    expect(Math.round(sheet!.width)).toBe(595);
    // One label per order; the orders' customer_reference stays off them (it is not for the carrier).
    expect(sheet!.text.split('Anna de Vries')).toHaveLength(4);
    for (const order of ['ORDER-2001', 'ORDER-2002', 'ORDER-2003']) expect(sheet!.text).not.toContain(order);
    // A warehouse day: the manifest downloaded, the collection collected, its parcels with the carrier.
    expect((await readFile(join(dir, 'manifest.pdf'))).subarray(0, 5).toString()).toBe('%PDF-');
    expect(stdout).toMatch(/^collection-collected$/m);
    expect(stdout).toMatch(/^shipment-received-by-carrier$/m);
    expect(answers).toContainEqual(expect.objectContaining({ status: '201', request: `POST ${server.url}/hooks` }));
    // The return portal walk: an approved return's label, a report line and today's numbers.
    expect((await readFile(join(dir, 'return-label.pdf'))).subarray(0, 5).toString()).toBe('%PDF-');
    expect(stdout).toContain('return_id,created_at,status');
    expect(answers).toContainEqual(
      expect.objectContaining({ status: '200', request: expect.stringContaining(`GET ${server.url}/returns/v1/analytics/approved`) }),
    );
    // One sandbox for a team: the job's clock ran ahead alone, its rate limit showed, it removed its tenant.
    expect(stdout).toMatch(/"follows_global": false/);
    expect(stdout).toMatch(/^ratelimit-remaining: \d+/im);
    expect(answers.at(-1)).toMatchObject({ status: '200', request: expect.stringMatching(new RegExp(`^DELETE ${server.url}/_sandbox/tenants/tenant-`)) });
  });
});
