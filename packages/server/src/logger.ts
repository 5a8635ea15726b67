/**
 * JSON logs through pino. Secrets never leave: credentials, tokens and passwords are redacted by
 * path, and request logs carry the path and status, never headers or bodies.
 */
import pino, { type Logger } from 'pino';

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

/**
 * A pino logger writing JSON lines to `destination` (stdout by default); `base` adds fields to
 * every line (a cluster worker's number).
 */
export function createLogger(
  level: string,
  destination?: pino.DestinationStream,
  base: Readonly<Record<string, unknown>> = {},
): Logger {
  return pino(
    { level, base: { service: 'fleet-api', ...base }, redact: { paths: REDACT_PATHS, censor: '[redacted]' } },
    destination,
  );
}
