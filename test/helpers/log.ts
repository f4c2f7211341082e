/** A logger whose lines tests can read: the real pino setup, writing parsed JSON lines into an array. */
import { pino } from 'pino';
import type { Logger } from '../../src/log.ts';
import type { Json } from './json.ts';

export type LogLine = Json & { level: number; msg: string };

export function captureLogger(level: 'debug' | 'info' = 'debug'): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const logger = pino(
    { level, base: undefined },
    { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) },
  );
  return { logger, lines };
}

export const LEVELS = { debug: 20, info: 30, warn: 40, error: 50 } as const;
