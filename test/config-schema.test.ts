import { describe, expect, it } from 'vitest';
import { parseCli } from '../src/cli.js';
import { ConfigError, createSandbox, settings } from '../src/index.js';

/*
 * One schema for the command line, the environment and `createSandbox({ config })`: the settings
 * table of src/config.ts. A bad value is refused the same way whichever door it came through,
 * named the way that door names it.
 */

/** The error `createSandbox` throws for `config`, or undefined when it makes a sandbox. */
async function libraryError(config: Record<string, unknown>): Promise<ConfigError | undefined> {
  try {
    const sandbox = await createSandbox({ config });
    await sandbox.close();
    return undefined;
  } catch (error) {
    return error as ConfigError;
  }
}

/** The error the command line gives for `args`, or undefined when it would serve. */
function cliError(args: string[], env: Record<string, string> = {}): ConfigError | undefined {
  try {
    parseCli(args, env);
    return undefined;
  } catch (error) {
    return error as ConfigError;
  }
}

describe('createSandbox({ config }) and the command line share one schema', () => {
  it.each([
    ['registrationDelay', -5, ['--registration-delay=-5'], 'must not be negative, got -5'],
    ['contractVerificationDelay', -1, ['--contract-verification-delay=-1'], 'must not be negative, got -1'],
    ['tokenTtl', 'abc', ['--token-ttl=abc'], "must be an integer, got 'abc'"],
    ['tokenTtl', 0, ['--token-ttl=0'], 'must be at least 1 second, got 0'],
    ['bodyLimit', 100, ['--body-limit=100'], 'must be at least 1024 bytes, got 100'],
    ['visitorTtl', 0, ['--visitor-ttl=0'], 'must be 1 to 2592000 seconds, got 0'],
    ['quotaHooks', 0, ['--quota-hooks=0'], 'must be a whole number of at least 1, got 0'],
    ['rateLimit', 1.5, ['--rate-limit=1.5'], null],
    ['publicUrl', 'ftp://example.com', ['--public-url=ftp://example.com'], "must be an http(s) URL, got 'ftp://example.com'"],
    ['logLevel', 'loud', ['--log-level=loud'], "must be one of fatal, error, warn, info, debug, trace, silent, got 'loud'"],
    ['logFormat', 'xml', ['--log-format=xml'], "must be one of auto, pretty, json, got 'xml'"],
    ['allowedHosts', 'http://x', ['--allowed-hosts=http://x'], "has an entry that is not a host, *.domain or host:port: 'http://x'"],
    ['adminToken', 'let me in', ['--admin-token=let me in'], 'cannot be sent as a bearer token: use letters, digits and - . _ ~ + / only (no spaces)'],
  ])('%s: %j is refused at once, with the same words as %j', async (key, value, args, problem) => {
    const library = await libraryError({ [key]: value });
    const cli = cliError(args);
    const setting = settings.find((candidate) => candidate.key === key)!;
    expect(library).toBeInstanceOf(ConfigError);
    expect(cli).toBeInstanceOf(ConfigError);
    expect(library!.setting).toBe(key);
    expect(cli!.setting).toBe(key);
    expect(library!.message).toBe(`createSandbox: config.${key} ${library!.problem}`);
    expect(cli!.message).toBe(`${setting.env} (--${setting.flag}) ${cli!.problem}`);
    if (problem !== null) expect(library!.problem).toBe(problem);
    // 1.5 is text on the command line ('1.5') and a number in code (1.5); the rule is the same.
    if (problem === null) expect(library!.problem!.replace(/'/g, '')).toBe(cli!.problem!.replace(/'/g, ''));
    else expect(cli!.problem).toBe(problem);
  });

  it('refuses a misspelt setting at once and names the one it looks like', async () => {
    const library = await libraryError({ registrationDelai: 0 });
    expect(library).toBeInstanceOf(ConfigError);
    expect(library!.message).toBe('createSandbox: config.registrationDelai is not a setting; did you mean registrationDelay?');
    expect(cliError(['--registration-delai=0'])!.message).toBe('unknown option --registration-delai; did you mean --registration-delay? see --help');
    expect(cliError(['--prot=8080'])!.message).toBe('unknown option --prot; did you mean --port? see --help');
    const unlike = await libraryError({ colour: 'blue' });
    expect(unlike!.message).toMatch(/^createSandbox: config\.colour is not a setting; the settings are port, host, .*registrationDelay/);
  });

  it('applies the rules between settings to code too, naming the settings as code does', async () => {
    expect((await libraryError({ shared: true }))!.message).toBe(
      'createSandbox: config.shared needs an admin token: set config.adminToken, or every caller could reset every tenant',
    );
    expect(cliError(['--shared'])!.message).toBe(
      'SANDBOX_SHARED (--shared) needs an admin token: set SANDBOX_ADMIN_TOKEN (--admin-token), or every caller could reset every tenant',
    );
    expect((await libraryError({ tenantPerVisitor: true }))!.message).toMatch(/^createSandbox: config\.tenantPerVisitor needs an admin token/);
  });

  it('refuses an auth port that is the API port, however each was given; two free ports (0) are two ports', () => {
    const problem =
      'must be another port than PORT (--port), both are 8080; the API port serves POST /access-token too, so leave AUTH_PORT unset unless the auth server needs a port of its own';
    expect(cliError(['--auth-port=8080'])!.message).toBe(`AUTH_PORT (--auth-port) ${problem}`);
    expect(cliError(['--port=9000'], { AUTH_PORT: '9000' })!.message).toBe(`AUTH_PORT (--auth-port) ${problem.replace('are 8080', 'are 9000')}`);
    expect(cliError(['--auth-port=0', '--port=0'])).toBeUndefined();
    expect(cliError(['--auth-port=8081'])).toBeUndefined();
  });

  it('takes good values in code as the command line does, and undefined as left out', async () => {
    const sandbox = await createSandbox({ config: { registrationDelay: 0, tokenTtl: 60, publicUrl: 'https://sandbox.example.com/', logLevel: undefined } });
    try {
      expect(sandbox.url).toBe('https://sandbox.example.com');
      const answer = await sandbox.request('/access-token', {
        method: 'POST',
        body: JSON.stringify({ grant_type: 'client_credentials', client_id: 'sandbox-client', client_secret: 'sandbox-secret' }),
      });
      expect(((await answer.json()) as { expires_in: number }).expires_in).toBe(60);
    } finally {
      await sandbox.close();
    }
  });
});
