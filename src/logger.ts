import { pino, type Logger as Pino } from 'pino';
import type { Config } from './config.js';

/**
 * The process logger: JSON lines, or human-readable lines when stdout is a terminal (pino-pretty
 * is only loaded then). Only the server process creates one; the app receives it through its deps.
 */
export async function createLogger(level: Config['logLevel'], tty = Boolean(process.stdout.isTTY)): Promise<Pino> {
  if (!tty) return pino({ level, base: undefined });
  const { default: pretty } = await import('pino-pretty');
  return pino({ level, base: undefined }, pretty({ colorize: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' }));
}
