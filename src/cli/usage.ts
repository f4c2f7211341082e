/** Command-line parsing shared by the commands: one error type for "you typed it wrong" (exit 2). */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export class UsageError extends Error {
  override name = 'UsageError' as const;
}

export interface Io {
  out(text: string): void;
  err(text: string): void;
  env: Record<string, string | undefined>;
  /** The command as it was run, for messages: "tunesmith" (the default) or "npm run cli --" from a checkout. */
  program?: string;
  /** Writes to stderr as it is, when stderr is a terminal (for progress lines redrawn in place); absent otherwise. */
  terminal?: (text: string) => void;
}

export interface Command {
  /** One line for the command list. */
  summary: string;
  /** The full --help text. */
  help: string;
  run(args: string[], io: Io): Promise<number>;
}

type Options = NonNullable<ParseArgsConfig['options']>;

export interface Parsed {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** parseArgs with clear messages: unknown flags, missing values and wrong positional counts are UsageErrors. */
export function parse(
  args: string[],
  options: Options,
  positionals: { min: number; max: number; names: string },
): Parsed | 'help' {
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({
      args,
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/\. To specify a positional argument.*$/s, '.'));
  }
  if (parsed.values.help) return 'help';
  const count = parsed.positionals.length;
  if (count < positionals.min) throw new UsageError(`Missing ${positionals.names}.`);
  if (count > positionals.max) throw new UsageError(`Unexpected argument "${parsed.positionals[positionals.max]}".`);
  return { values: parsed.values as Parsed['values'], positionals: parsed.positionals };
}

/** The positional argument at `index`, which `parse` already required (its `min`): absence here is a bug. */
export function positional(parsed: Parsed, index: number): string {
  const value = parsed.positionals[index];
  if (value === undefined) throw new Error(`positional argument ${index} is missing, though parse() required it`);
  return value;
}

export function positiveInteger(flag: string, value: string | boolean | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < 1)
    throw new UsageError(`${flag} expects a whole number of at least 1, got "${String(value)}".`);
  return number;
}

export const text = (value: string | boolean | undefined): string | undefined =>
  typeof value === 'string' ? value : undefined;

export function printHelp(io: Pick<Io, 'out'>, help: string): number {
  io.out(help);
  return 0;
}
