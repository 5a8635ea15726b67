/**
 * Logs through pino: JSON lines by default, or `LOG_FORMAT=pretty` (pino-pretty: one coloured,
 * readable line per entry) for a person at a terminal. Either way the repeated warnings of one
 * failure are folded into one line with a count (log-folding.ts). Secrets never leave:
 * credentials, tokens and passwords are redacted by path, and request logs carry the path and
 * status, never headers or bodies.
 */
import pino, { type DestinationStream, type Logger } from 'pino';
import pinoPretty from 'pino-pretty';
import { FOLD_WINDOW_MS, FoldingStream } from './log-folding';

export const REDACT_PATHS = [
  'password',
  '*.password',
  'token',
  '*.token',
  'authorization',
  '*.authorization',
  'headers.authorization',
  'req.headers.authorization',
  'config.headers',
  'SALT_API_PASSWORD',
  'SECRET_KEY',
  'API_TOKENS',
];

/** `json` (the default) or `pretty`. */
export type LogFormat = 'json' | 'pretty';

/** The readable form: time, level, message, then the fields; colours only on a terminal. */
export function prettyStream(destination?: DestinationStream): DestinationStream {
  return pinoPretty({
    colorize: destination === undefined && process.stdout.isTTY,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service',
    singleLine: true,
    sync: true,
    ...(destination ? { destination } : {}),
  });
}

/** How a logger writes: LOG_FORMAT, and how long repeated warnings are counted before their line. */
export interface LogOptions {
  readonly format?: string;
  readonly foldWindowMs?: number;
}

/**
 * A pino logger writing to `destination` (stdout by default), as JSON lines or, with format
 * `pretty`, readable ones; `base` adds fields to every line (a cluster worker's number).
 */
export function createLogger(
  level: string,
  destination?: DestinationStream,
  base: Readonly<Record<string, unknown>> = {},
  options: LogOptions = {},
): Logger {
  const out =
    options.format === 'pretty'
      ? prettyStream(destination)
      : (destination ?? pino.destination({ dest: 1, sync: true }));
  return pino(
    { level, base: { service: 'fleet-api', ...base }, redact: { paths: REDACT_PATHS, censor: '[redacted]' } },
    new FoldingStream(out, options.foldWindowMs ?? FOLD_WINDOW_MS),
  );
}
