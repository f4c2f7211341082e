/** `tunesmith migrate --to postgres://…`: moves a data dir's records into PostgreSQL. */
import { loadConfig } from '../config.ts';
import { openStore } from '../store/index.ts';
import type { CopyCounts } from '../store/postgres/copy-from-files.ts';
import { UsageError, parse, printHelp, text, type Command } from './usage.ts';

export const migrateCommand: Command = {
  summary: "Copy the data dir's records into an empty PostgreSQL database",
  help: `Usage: tunesmith migrate --to postgres://user:password@host:5432/database [--json]

Copies the data dir's (TUNESMITH_DATA_DIR) accounts, API keys, dashboard sign-ins, generations, webhook endpoints,
secrets, events and deliveries, and the download-signing key into an empty PostgreSQL database, in one
transaction, then prints what it copied. Keys, download links and webhook secrets keep working. The audio stays
where it is. Dashboard sessions are copied too, so people stay signed in. Stop the server first; the data dir is left
as it was. Then start the servers with TUNESMITH_DATABASE_URL set to the same URL.

Options:
  --to URL           the target database; it must be empty (a new database from createdb)
  --json             print the counts as one JSON line
  -h, --help         show this help`,
  async run(args, io) {
    const parsed = parse(args, { to: { type: 'string' }, json: { type: 'boolean' } }, { min: 0, max: 0, names: '' });
    if (parsed === 'help') return printHelp(io, this.help);
    const to = text(parsed.values.to);
    if (to === undefined)
      throw new UsageError('Name the target database with --to postgres://user:password@host:5432/database.');
    if (!/^postgres(ql)?:\/\/[^/]+\/[^/?]+/.test(to))
      throw new UsageError(
        '--to expects a PostgreSQL URL naming a database, like postgres://user:password@host:5432/tunesmith.',
      );
    const { dataDir } = loadConfig(io.env);
    // Loaded here, not at the top: the other commands must not pay for the PostgreSQL client.
    const { copyDataDirToPostgres } = await import('../store/postgres/copy-from-files.ts');
    const store = await openStore({ dataDir, owner: 'cli' });
    let counts: CopyCounts;
    try {
      counts = await copyDataDirToPostgres(store, to);
    } finally {
      await store.close();
    }
    if (parsed.values.json) io.out(JSON.stringify(counts));
    else io.out(summary(dataDir, counts));
    return 0;
  },
};

function summary(dataDir: string, c: CopyCounts): string {
  return [
    `Copied from ${dataDir}:`,
    `  ${c.accounts} account(s), ${c.keys} API key(s), ${c.credentials} dashboard sign-in(s), ${c.sessions} dashboard session(s)`,
    `  ${c.generations} generation(s) (${c.deleted_generations} of them deleted, kept so their quota stays spent)`,
    `  ${c.custom_styles} custom style(s)`,
    `  ${c.webhook_endpoints} webhook endpoint(s), ${c.webhook_secrets} signing secret(s), ${c.webhook_events} event(s), ${c.webhook_deliveries} deliveries`,
    `  ${c.settings} setting(s), ${c.signing_key ? 'the download-signing key' : 'no download-signing key (the server never started)'}`,
    'The audio stays in the data dir; people signed in to the dashboard stay signed in.',
  ].join('\n');
}
