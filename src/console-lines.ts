/**
 * The console as people read it: one line per log record. pino writes every record as a JSON
 * line; `consoleStream` reads it back and writes it as a line of text:
 *
 *   14:03:07 POST /shipments 422 4.2 ms sandbox-client  10008 Unprocessable Entity: ... (pointer /data/attributes/...)
 *
 * A request shows its method, path, status, milliseconds and client, and when it failed the first
 * error's code, title, detail and where in the request it was; any other record its level (when
 * not info), message and the fields the message does not already say, and an error's stack on the
 * lines below. Colours only on a terminal, and never with NO_COLOR set.
 */
import type { LoggedError } from './http/request-log.js';

type LogRecord = Record<string, unknown> & { level?: number; time?: number; msg?: string };

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };

/** Fields every record has, or that the line shows in its own way. */
const SHOWN = new Set(['level', 'time', 'msg', 'err', 'pid', 'hostname']);

type Paint = (code: string, text: string) => string;
const plain: Paint = (_code, text) => text;
const ansi: Paint = (code, text) => `\x1b[${code}m${text}\x1b[0m`;

/** ANSI codes: dim, red, green, yellow, cyan, bold. */
const DIM = '2';
const RED = '31';
const GREEN = '32';
const YELLOW = '33';
const CYAN = '36';

/** The local wall-clock time of a record, `HH:MM:SS`. */
function clock(time: unknown): string {
  const date = typeof time === 'number' ? new Date(time) : new Date();
  return [date.getHours(), date.getMinutes(), date.getSeconds()].map((part) => String(part).padStart(2, '0')).join(':');
}

function statusColour(status: number): string {
  return status >= 500 ? RED : status >= 400 ? YELLOW : status >= 300 ? CYAN : GREEN;
}

/** The first error of a failed request as the line shows it: `10008 Unprocessable Entity: detail (pointer /data)`. */
function errorText(error: LoggedError): string {
  const where =
    error.pointer !== undefined
      ? ` (pointer ${error.pointer || '/'})`
      : error.parameter !== undefined
        ? ` (parameter ${error.parameter})`
        : error.header !== undefined
          ? ` (header ${error.header})`
          : '';
  const more = error.more ? ` (and ${error.more} more)` : '';
  const title = error.title && error.detail ? `${error.title}: ${error.detail}` : (error.title ?? error.detail ?? '');
  return `${error.code ?? ''} ${title}${where}${more}`.trim();
}

/** A field's value as the line shows it: text as it is when it has no spaces, anything else as JSON. */
function fieldValue(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
}

function accessLine(record: LogRecord, paint: Paint): string {
  const status = record.status as number;
  const parts = [
    paint(DIM, clock(record.time)),
    `${record.method as string} ${record.path as string}`,
    paint(statusColour(status), String(status)),
    `${record.ms as number} ms`,
  ];
  if (typeof record.client === 'string') parts.push(record.client);
  let line = parts.join(' ');
  const error = record.error as LoggedError | undefined;
  if (error && typeof error === 'object') line += `  ${paint(statusColour(status), errorText(error))}`;
  return line;
}

function otherLine(record: LogRecord, paint: Paint): string {
  const level = record.level ?? 30;
  const message = typeof record.msg === 'string' ? record.msg : '';
  const label = level === 30 ? '' : paint(level >= 50 ? RED : level >= 40 ? YELLOW : DIM, LEVELS[level] ?? String(level));
  const fields: string[] = [];
  for (const [name, value] of Object.entries(record)) {
    if (SHOWN.has(name) || value === undefined) continue;
    // What the message already says is not said again.
    if ((typeof value === 'string' || typeof value === 'number') && message.includes(String(value))) continue;
    fields.push(`${paint(DIM, `${name}=`)}${fieldValue(value)}`);
  }
  let line = [paint(DIM, clock(record.time)), label, message, ...fields].filter(Boolean).join(' ');
  const err = record.err as { stack?: string; message?: string } | undefined;
  const stack = err?.stack ?? err?.message;
  if (stack) line += `\n${stack.replace(/^/gm, '    ')}`;
  return line;
}

/** One record as the console shows it (no line break at the end). */
export function consoleLine(record: LogRecord, colour = false): string {
  const paint = colour ? ansi : plain;
  const isRequest = typeof record.method === 'string' && typeof record.path === 'string' && typeof record.status === 'number' && typeof record.ms === 'number';
  return isRequest ? accessLine(record, paint) : otherLine(record, paint);
}

/**
 * A destination for pino that writes each record as the console shows it to `out`. A line that is
 * not a JSON record (none should be) is written as it came.
 */
export function consoleStream(out: { write(text: string): unknown }, colour: boolean): { write(line: string): void } {
  return {
    write(line: string) {
      let record: LogRecord;
      try {
        record = JSON.parse(line) as LogRecord;
      } catch {
        out.write(line);
        return;
      }
      out.write(`${consoleLine(record, colour)}\n`);
    },
  };
}
