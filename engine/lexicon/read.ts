/** Reading the lexicon's JSON files: one error type naming the file and the entry at fault. */
import { existsSync, readFileSync } from 'node:fs';
import { EngineError } from '../errors.ts';

export class InvalidLexiconError extends EngineError {
  override name = 'InvalidLexiconError' as const;
  constructor(
    readonly file: string,
    readonly problem: string,
  ) {
    super(`Lexicon ${file} is invalid: ${problem}`);
  }
}

export function readJson(folder: URL, file: string): unknown {
  try {
    return JSON.parse(readFileSync(new URL(file, folder), 'utf8'));
  } catch (error) {
    throw new InvalidLexiconError(file, (error as Error).message);
  }
}

/** A file the lexicon may go without (a test folder of the core files): undefined when absent. */
export function readOptionalJson(folder: URL, file: string): unknown {
  return existsSync(new URL(file, folder)) ? readJson(folder, file) : undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The function that throws for one file. */
export const failer =
  (file: string) =>
  (problem: string): never => {
    throw new InvalidLexiconError(file, problem);
  };
