/**
 * The service's log: one structured line per event through pino, JSON for log collectors, or pretty lines when
 * it writes to a terminal. What goes in is chosen field by field (paths without their query, ids, statuses), so
 * keys, signatures and passwords have no way in; the redaction below is a second line of defence.
 */
import { pino, type Logger } from 'pino';
import pinoPretty from 'pino-pretty';

export type { Logger };

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LoggerOptions {
  /** @default 'info' */
  level?: LogLevel;
  /** Human-readable lines (for a terminal) instead of JSON. @default false */
  pretty?: boolean;
  /** @default process.stdout */
  destination?: NodeJS.WritableStream;
}

const REDACT = [
  'authorization',
  'cookie',
  'password',
  'secret',
  'token',
  '*.authorization',
  '*.cookie',
  '*.password',
  '*.secret',
  '*.token',
];

export function createLogger(options: LoggerOptions = {}): Logger {
  const settings = {
    level: options.level ?? 'info',
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACT, censor: '[redacted]' },
  };
  const destination = options.destination ?? process.stdout;
  if (!options.pretty) return pino(settings, destination);
  return pino(
    settings,
    pinoPretty({ destination, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }),
  );
}

/** A logger that writes nothing (tests, and callers that were given none). */
export const silentLogger = (): Logger => pino({ level: 'silent' });
