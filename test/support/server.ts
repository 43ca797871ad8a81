import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface RunningServer {
  url: string;
  process: ChildProcess;
  output(): string;
  /** Sends a signal and waits for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** How the CLI is run: from source through tsx, unless a test names a built entry file. */
const FROM_SOURCE = ['--import', 'tsx', 'src/main.ts'];

/** Runs the CLI as a user would and resolves once it listens. */
export function startServer(env: Record<string, string>, args: string[] = [], entry: string[] = FROM_SOURCE): Promise<RunningServer> {
  const child = spawn(process.execPath, [...entry, ...args], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 15000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({
          url: match[1]!,
          process: child,
          output: () => output,
          stop: async (signal = 'SIGTERM') => {
            if (child.exitCode === null) child.kill(signal);
            return exited;
          },
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
}

/** Runs the CLI expecting it to fail; resolves with its exit code and output. */
export function runToExit(env: Record<string, string>, args: string[] = []): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [...FROM_SOURCE, ...args], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 15000);
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(timer);
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
