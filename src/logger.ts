import { pino, type Logger as Pino } from 'pino';
import pretty from 'pino-pretty';
import type { Config } from './config.js';

/**
 * The process logger: JSON lines, or human-readable lines when stdout is a terminal.
 * Only `main.ts` creates one; the app receives it through its deps.
 */
export function createLogger(level: Config['logLevel'], tty = Boolean(process.stdout.isTTY)): Pino {
  if (!tty) return pino({ level, base: undefined });
  return pino({ level, base: undefined }, pretty({ colorize: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' }));
}
