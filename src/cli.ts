import { parseArgs } from 'node:util';
import { ConfigError, closestName, givenSettings, parseConfig, settings, type Config, type Setting } from './config.js';
import { VERSION } from './version.js';

/**
 * What the command line asks for: print a text and stop, or serve with a config; `given` are the
 * settings a flag or a variable set (the start says when the data file made one of them moot).
 */
export type CliAction = { action: 'print'; text: string } | { action: 'serve'; config: Config; given: ReadonlySet<keyof Config> };

const argNames: Record<Setting['kind'], string> = { port: 'port', int: 'n', count: 'n', string: 'value', bool: '', url: 'url', choice: 'value' };

function flagUsage(setting: Setting): string {
  const arg = setting.arg ?? argNames[setting.kind];
  return arg ? `--${setting.flag} <${arg}>` : `--${setting.flag}`;
}

/** The `--help` text, generated from the settings table. */
function usage(): string {
  const rows = settings.map((setting) => ({
    flag: flagUsage(setting),
    env: setting.kind === 'bool' ? `${setting.env}=true` : setting.env,
    help: setting.default === undefined || setting.kind === 'bool' ? setting.help : `${setting.help} (default: ${setting.default})`,
  }));
  rows.push({ flag: '-h, --help', env: '', help: 'print this help and exit' }, { flag: '-v, --version', env: '', help: 'print the version and exit' });
  const flagWidth = Math.max(...rows.map((row) => row.flag.length));
  const envWidth = Math.max(...rows.map((row) => row.env.length));
  return [
    'Usage: parcel-sandbox [options]',
    '       parcel-sandbox report --url <url> [--format json|markdown|junit] [--fail-on <kinds>]  (see report --help)',
    '',
    'A local, stateful sandbox of the MyParcel.com parcel-shipping API.',
    'Every option can also be set with the environment variable next to it; the option wins.',
    '',
    `  ${'option'.padEnd(flagWidth)}  ${'environment'.padEnd(envWidth)}  meaning`,
    ...rows.map((row) => `  ${row.flag.padEnd(flagWidth)}  ${row.env.padEnd(envWidth)}  ${row.help}`.trimEnd()),
    '',
  ].join('\n');
}

/** parseArgs failures, reworded to one line that names the option. */
function argumentError(error: unknown): ConfigError {
  const { code, message } = error as { code?: string; message: string };
  const quoted = /'([^']+)'/.exec(message)?.[1] ?? '';
  const option = quoted.split(' ')[0] ?? quoted;
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      const meant = option.startsWith('--')
        ? closestName(
            option.slice(2).split('=')[0]!,
            settings.map((setting) => setting.flag),
          )
        : undefined;
      return new ConfigError(`unknown option ${option}; ${meant ? `did you mean --${meant}? ` : ''}see --help`);
    }
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return new ConfigError(`unexpected argument '${quoted}'; options start with --, see --help`);
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (/does not take an argument/.test(message)) return new ConfigError(`${option} takes no value`);
      if (/ambiguous/.test(message)) return new ConfigError(`${option} needs a value; write ${option}=<value> for a value that starts with '-'`);
      return new ConfigError(`${option} needs a value`);
    default:
      return new ConfigError(message.split('\n')[0] ?? 'invalid arguments; see --help');
  }
}

/**
 * Reads the command line (`argv` without node and the script) and the environment. Bad input
 * throws a `ConfigError` with a one-line message; `--help` and `--version` ask to print.
 */
export function parseCli(argv: readonly string[], env: Record<string, string | undefined>): CliAction {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean', short: 'v' },
  };
  for (const setting of settings) options[setting.flag] = { type: setting.kind === 'bool' ? 'boolean' : 'string' };
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }));
  } catch (error) {
    throw argumentError(error);
  }
  if (values.help) return { action: 'print', text: usage() };
  if (values.version) return { action: 'print', text: `${VERSION}\n` };
  const overrides: Partial<Record<keyof Config, string>> = {};
  for (const setting of settings) {
    const value = values[setting.flag];
    if (value === undefined) continue;
    if (value === '') throw new ConfigError(`--${setting.flag} needs a value`);
    overrides[setting.key] = value === true ? 'true' : String(value);
  }
  return { action: 'serve', config: parseConfig(env, overrides), given: givenSettings(env, overrides) };
}
