/** `tunesmith worker`: renders tasks from the PostgreSQL queue until SIGTERM/SIGINT, then stops gracefully and exits 0. */
import { loadConfig } from '../config.ts';
import { parse, printHelp, UsageError, type Command } from './usage.ts';
import { untilStopSignal } from './serve.ts';

export const worker: Command = {
  summary: 'Render tasks from the PostgreSQL queue (no HTTP)',
  help: `Usage: tunesmith worker [--accounts ID,ID]

Runs render threads that take tasks from the job queue in PostgreSQL, with no HTTP: start any number, on any
machine that reaches the database and the audio storage, beside API nodes (\`tunesmith serve\`, with
TUNESMITH_WORKERS=0 for one that only answers requests). Configuration comes from the environment:
  TUNESMITH_DATABASE_URL       postgres://user:password@host:5432/database (required; the API nodes' database)
  TUNESMITH_DATA_DIR           where the audio goes (default ./data; the API nodes must read the same storage)
  TUNESMITH_WORKERS            render threads (default: the machine's cores)
  TUNESMITH_JOB_LEASE_SECONDS  how long a worker may go silent before its task goes to another (default 60,
                               at least 10); a worker that died has its task re-run within about 1.5 leases
  TUNESMITH_LOG_LEVEL          fatal, error, warn, info, debug, trace or silent (default info)

--accounts ID,ID renders only those accounts' tasks (dedicated workers, e.g. an Enterprise customer's machines):
from its first start on, their new tasks wait for workers started with them, and other workers leave them.

SIGTERM or SIGINT stops it: running renders finish (up to 30 s) or go back to the queue for another worker.`,
  async run(args, io) {
    const parsed = parse(args, { accounts: { type: 'string' } }, { min: 0, max: 0, names: '' });
    if (parsed === 'help') return printHelp(io, this.help);
    const accounts = accountsOption(parsed.values.accounts);
    const config = loadConfig(io.env);
    const stopRequested = untilStopSignal();
    // Loaded here, not at the top: the key commands must not need the engine.
    const { startWorker } = await import('../worker.ts');
    const { createLogger } = await import('../log.ts');
    const logger = createLogger({ level: config.logLevel ?? 'info', pretty: process.stdout.isTTY === true });
    const handle = await startWorker(config, { logger, print: io.err, ...(accounts ? { accounts } : {}) });
    const signal = await stopRequested;
    logger.info({ signal }, 'finishing running renders and stopping');
    await handle.close();
    logger.info('stopped');
    setTimeout(() => process.exit(0), 2_000).unref();
    return 0;
  },
};

/** `--accounts ID,ID`: the account ids, or undefined when not given. */
function accountsOption(value: string | boolean | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const ids = String(value)
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '');
  if (ids.length === 0 || ids.some((id) => !/^[A-Za-z0-9_-]{1,64}$/.test(id)))
    throw new UsageError('--accounts takes account ids separated by commas, like acct_1,acct_2.');
  return ids;
}
