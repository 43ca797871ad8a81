import { pino, type Logger as Pino } from 'pino';
import type { Config } from './config.js';
import { consoleStream } from './console-lines.js';

/** How the process log is written: lines for people, or JSON lines for tools. */
export type LogFormat = 'pretty' | 'json';

/** The format `LOG_FORMAT` asks for; `auto` is pretty when stdout is a terminal and JSON lines anywhere else (a pipe, a file, a container's log). */
export function logFormatOf(setting: Config['logFormat'], tty = Boolean(process.stdout.isTTY)): LogFormat {
  return setting === 'auto' ? (tty ? 'pretty' : 'json') : setting;
}

/**
 * The process logger: JSON lines, or one line per record for people (src/console-lines.ts), in
 * colour on a terminal unless NO_COLOR is set. Only the server process creates one; the app
 * receives it through its deps.
 */
export function createLogger(level: Config['logLevel'], format: LogFormat, out: { write(text: string): unknown; isTTY?: boolean } = process.stdout): Pino {
  const options = { level, base: undefined };
  // stdout itself is left to pino, which writes it through its own buffered stream.
  if (format === 'json') return out === process.stdout ? pino(options) : pino(options, out as { write(text: string): void });
  return pino(options, consoleStream(out, Boolean(out.isTTY) && !process.env.NO_COLOR));
}
