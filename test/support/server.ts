import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface RunningServer {
  url: string;
  process: ChildProcess;
  output(): string;
  /** Resolves once the output (stdout and stderr) holds `text`; rejects when the server exits first. */
  waitFor(text: string): Promise<void>;
  /** Sends a signal and waits for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * How long a child process may run before it is killed: a reaper for a hung process, longer than
 * any test's timeout, so that it never decides a test's outcome (the test's own timeout does).
 */
export const REAP_AFTER_MS = 180_000;

/** Resolves once `read()` matches `pattern`, checked whenever `child` writes; rejects when it exits first. */
export function outputMatching(child: ChildProcess, read: () => string, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = pattern.exec(read());
      if (!match) return false;
      child.stdout?.off('data', check);
      child.stderr?.off('data', check);
      child.off('close', exit);
      resolve(match);
      return true;
    };
    const exit = () => {
      if (!check()) reject(new Error(`exited (${child.exitCode ?? child.signalCode}) before writing ${pattern}:\n${read()}`));
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    // 'close' comes once the process has exited and its output has been read to the end.
    child.once('close', exit);
    const closed = (child.exitCode !== null || child.signalCode !== null) && child.stdout?.closed !== false && child.stderr?.closed !== false;
    if (closed) exit();
    else check();
  });
}

/** How the CLI is run: the bundle of the current sources this run made (test/global-setup.ts), unless a test names another entry file. */
export const cliEntry = (): string[] => [inject('cliEntry')];

/** Runs the CLI as a user would and resolves once it listens. */
export async function startServer(env: Record<string, string>, args: string[] = [], entry: string[] = cliEntry()): Promise<RunningServer> {
  const child = spawn(process.execPath, [...entry, ...args], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const reaper = setTimeout(() => child.kill('SIGKILL'), REAP_AFTER_MS);
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(reaper);
      resolve(code);
    }),
  );
  // Listeners in this order: the output is collected before anything waiting on it looks.
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const read = () => output;
  const [, url] = await outputMatching(child, read, /listening on (http:\/\/\S+)/).catch((error: Error) => {
    throw new Error(`server did not start: ${error.message}`);
  });
  return {
    url: url!,
    process: child,
    output: read,
    waitFor: async (text) => {
      await outputMatching(child, read, new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    },
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Runs the CLI expecting it to fail; resolves with its exit code and output. */
export function runToExit(env: Record<string, string>, args: string[] = []): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [...cliEntry(), ...args], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const reaper = setTimeout(() => child.kill('SIGKILL'), REAP_AFTER_MS);
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(reaper);
      resolve({ code, output });
    }),
  );
}

/** A token with every scope of the default client, from a running server. */
export async function getToken(url: string): Promise<string> {
  const response = await fetch(`${url}/access-token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: 'sandbox-client', client_secret: 'sandbox-secret', scope: '*' }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

/** A valid `POST /shipments` body (as text) from the client's shop with a Dutch sender address. */
export async function dutchShipmentBody(url: string, headers: Record<string, string>): Promise<string> {
  const shops = (await (await fetch(`${url}/shops`, { headers })).json()) as { data: { id: string; attributes: Record<string, unknown> }[] };
  const shop = shops.data.find((s) => (s.attributes.sender_address as { country_code: string }).country_code === 'NL')!;
  return JSON.stringify({
    data: {
      type: 'shipments',
      attributes: {
        recipient_address: { first_name: 'Anna', last_name: 'de Vries', street_1: 'Kalverstraat', city: 'Amsterdam', country_code: 'NL' },
        sender_address: shop.attributes.sender_address,
        return_address: shop.attributes.return_address,
        physical_properties: { weight: 1000 },
      },
      relationships: { shop: { data: { type: 'shops', id: shop.id } } },
    },
  });
}
