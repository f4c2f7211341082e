/**
 * The command line: `tunesmith <command> [options]` (from a checkout: `npm run -s cli -- <command>`).
 * Exit codes: 0 done, 1 the command failed (bad config, data dir in use, unknown id), 2 usage error.
 * What it prints names the command as it was run: `tunesmith` when installed, `npm run cli --` from a checkout.
 */
// First: `serve` and `worker` replace the process with one that has glibc's malloc settings before the rest loads.
import './memory-settings.ts';
import { pathToFileURL } from 'node:url';
import { accountsSetPlan, accountsSignInLink } from './cli/accounts.ts';
import { AdminCommandError } from './cli/admin-commands.ts';
import { keysCreate, keysList, keysRevoke } from './cli/keys.ts';
import { migrateCommand } from './cli/migrate.ts';
import { extend, remix } from './cli/derive.ts';
import { render } from './cli/render.ts';
import { serve } from './cli/serve.ts';
import { worker } from './cli/worker.ts';
import { NoDataError } from './cli/data-dir-access.ts';
import { UsageError, type Command, type Io } from './cli/usage.ts';
import { ConfigError } from './config.ts';
import { StorageUnreachableError } from './store/open-blob-store.ts';
import { DamagedFileError, DataDirLockedError, StorageFullError } from './store/index.ts';
// The error classes only: the PostgreSQL client is loaded by the commands that use a database.
import { DatabaseNotEmptyError, DatabaseUnavailableError } from './store/postgres/errors.ts';

/** Command name (one or two words) -> command. The engine's `render` command joins here. */
export const COMMANDS: Record<string, Command> = {
  serve,
  worker,
  render,
  extend,
  remix,
  'keys create': keysCreate,
  'keys list': keysList,
  'keys revoke': keysRevoke,
  'accounts set-plan': accountsSetPlan,
  'accounts signin-link': accountsSignInLink,
  migrate: migrateCommand,
};

/** How the CLI was started, as a person would type it again: the installed bin, or npm's script in a checkout. */
export const INSTALLED = 'tunesmith';
export const FROM_CHECKOUT = 'npm run cli --';

function overview(prefix?: string): string {
  const commands = Object.entries(COMMANDS).filter(([name]) => prefix === undefined || name.startsWith(`${prefix} `));
  const width = Math.max(...commands.map(([name]) => name.length));
  return [
    `Usage: tunesmith ${prefix ?? '<command>'}${prefix ? ' <subcommand>' : ''} [options]`,
    '',
    'Commands:',
    ...commands.map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`),
    `  ${'help'.padEnd(width)}  Show this list, or a command's options (help COMMAND)`,
    '',
    `Run "tunesmith ${prefix ?? '<command>'}${prefix ? ' <subcommand>' : ''} --help" for a command's options.`,
  ].join('\n');
}

const isFlag = (arg: string | undefined): boolean => arg === undefined || arg.startsWith('-');

/** `tunesmith <command>` in the texts, as `program <command>` (the help texts and messages say `tunesmith`). */
function naming(io: Io, program: string): Io {
  if (program === INSTALLED) return io;
  const words = [
    ...new Set([...Object.keys(COMMANDS).map((name) => name.split(' ')[0] ?? name), 'help', '<command>', '--help']),
  ];
  const pattern = new RegExp(
    `\\btunesmith(?= (?:${words.map((w) => w.replace(/[<>-]/g, '\\$&')).join('|')})(?![\\w-]))`,
    'g',
  );
  const name = (text: string) => text.replace(pattern, program);
  return { ...io, out: (text) => io.out(name(text)), err: (text) => io.err(name(text)) };
}

export async function main(argv: string[], rawIo: Io): Promise<number> {
  const program = rawIo.program ?? INSTALLED;
  const io = naming(rawIo, program);
  // `help` and `help COMMAND` are --help said as a word.
  if (argv[0] === 'help') return main(argv.length === 1 ? ['--help'] : [...argv.slice(1), '--help'], rawIo);
  const [first, second] = argv;
  if (first === undefined || first === '--help' || first === '-h') {
    (argv.length === 0 ? io.err : io.out)(overview());
    return argv.length === 0 ? 2 : 0;
  }
  const twoWords = `${first} ${second}`;
  const name = !isFlag(second) && COMMANDS[twoWords] ? twoWords : first;
  const command = COMMANDS[name];
  if (!command) {
    const group = Object.keys(COMMANDS).some((known) => known.startsWith(`${first} `));
    if (group && (isFlag(second) || second === undefined)) {
      const asksHelp = second === '--help' || second === '-h';
      (asksHelp ? io.out : io.err)(overview(first));
      return asksHelp ? 0 : 2;
    }
    const shown = group ? twoWords : first;
    io.err(`Unknown command "${shown}". Run "tunesmith help" to see the commands.`);
    return 2;
  }
  try {
    return await command.run(argv.slice(name.split(' ').length), io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\nRun "tunesmith ${name} --help" for usage.`);
      return 2;
    }
    if (
      error instanceof ConfigError ||
      error instanceof DataDirLockedError ||
      error instanceof DamagedFileError ||
      error instanceof StorageFullError ||
      error instanceof StorageUnreachableError ||
      error instanceof AdminCommandError ||
      error instanceof DatabaseNotEmptyError ||
      error instanceof DatabaseUnavailableError
    ) {
      io.err(error.message);
      return 1;
    }
    if (error instanceof NoDataError) {
      io.err(
        `${error.message}\nIf the server keeps its data elsewhere, point at it: TUNESMITH_DATA_DIR=/path/to/its/data ${program} ${argv.join(' ')}\n(or TUNESMITH_DATABASE_URL for a server on PostgreSQL).`,
      );
      return 1;
    }
    throw error;
  }
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
const viaBin = process.argv[1]?.endsWith('/bin/tunesmith.js') || process.argv[1]?.endsWith('/tunesmith');
if (invokedDirectly || viaBin) {
  const io: Io = {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    env: process.env,
    program: viaBin ? INSTALLED : FROM_CHECKOUT,
    ...(process.stderr.isTTY ? { terminal: (text: string) => void process.stderr.write(text) } : {}),
  };
  main(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`Unexpected error: ${(error as Error)?.stack ?? String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
