/** `tunesmith keys create|list|revoke`. */
import { loadConfig } from '../config.ts';
import { isEmailAddress } from '../email.ts';
import { PLAN_NAMES, isPlanName } from '../domain/plans.ts';
import type { CreatedKey, KeyRow } from './admin-commands.ts';
import { holdsNothing, runOnDataDir } from './data-dir-access.ts';
import { UsageError, parse, positional, printHelp, text, type Command } from './usage.ts';

export const keysCreate: Command = {
  summary: 'Create an API key (and a new account on the given plan)',
  help: `Usage: tunesmith keys create --plan starter|developer|enterprise [--email E] [--name N] [--json]
       tunesmith keys create --account ACCOUNT_ID [--name N] [--json]

Creates an API key and prints it once: only its hash is kept, so it cannot be shown again.
With --plan, a new account on that plan owns the key; with --account, the key is added to an existing account.

Options:
  --plan PLAN        starter (10 generations/month, 10 requests/min), developer (500, 60) or enterprise (unlimited, 600)
  --account ID       add the key to this existing account instead
  --email E          the new account's contact email
  --name N           a label for the account and the key
  --json             print one line: {"key": "...", "key_id": "...", "account_id": "..."}
  -h, --help         show this help`,
  async run(args, io) {
    const parsed = parse(
      args,
      {
        plan: { type: 'string' },
        account: { type: 'string' },
        email: { type: 'string' },
        name: { type: 'string' },
        json: { type: 'boolean' },
      },
      { min: 0, max: 0, names: '' },
    );
    if (parsed === 'help') return printHelp(io, this.help);
    const plan = text(parsed.values.plan);
    const account = text(parsed.values.account);
    if (plan === undefined && account === undefined)
      throw new UsageError(
        `Choose a plan with --plan ${PLAN_NAMES.join('|')} (or add to an account with --account ID).`,
      );
    if (plan !== undefined && account !== undefined)
      throw new UsageError('Use --plan for a new account or --account for an existing one, not both.');
    if (plan !== undefined && !isPlanName(plan))
      throw new UsageError(`Unknown plan "${plan}". Use ${PLAN_NAMES.join(', ')}.`);
    const email = text(parsed.values.email);
    if (email !== undefined && !isEmailAddress(email))
      throw new UsageError(`--email expects an address like name@example.com, got "${email}".`);
    const config = loadConfig(io.env);
    // A first key starts a data dir: said, so a key made in the wrong place (not the server's) is noticed.
    const starts = config.databaseUrl === undefined && holdsNothing(config.dataDir);
    const created = (await runOnDataDir(config, {
      command: 'keys.create',
      ...(plan !== undefined && { plan: plan as CreatedKey['plan'] }),
      ...(account !== undefined && { account }),
      email: email ?? null,
      name: text(parsed.values.name) ?? null,
    })) as CreatedKey;
    if (parsed.values.json) {
      io.out(JSON.stringify({ key: created.key, key_id: created.key_id, account_id: created.account_id }));
    } else {
      io.out(
        `Created key ${created.key_id} for account ${created.account_id} (${created.plan} plan):\n\n  ${created.key}\n\nKeep it safe: it is shown only this once.`,
      );
    }
    if (starts)
      io.err(
        `This started a new data dir at ${config.dataDir}: a server uses it when started with TUNESMITH_DATA_DIR=${config.dataDir}.`,
      );
    return 0;
  },
};

export const keysList: Command = {
  summary: 'List API keys (never the keys themselves)',
  help: `Usage: tunesmith keys list [--json]

Lists every key: id, prefix, account, plan, created, last used, revoked. The keys themselves are not stored.

Options:
  --json             print a JSON array
  -h, --help         show this help`,
  async run(args, io) {
    const parsed = parse(args, { json: { type: 'boolean' } }, { min: 0, max: 0, names: '' });
    if (parsed === 'help') return printHelp(io, this.help);
    const rows = (await runOnDataDir(loadConfig(io.env), { command: 'keys.list' })) as KeyRow[];
    if (parsed.values.json) io.out(JSON.stringify(rows));
    else if (rows.length === 0) io.out('No keys yet. Create one with: tunesmith keys create --plan developer');
    else io.out(table(rows));
    return 0;
  },
};

export const keysRevoke: Command = {
  summary: 'Revoke an API key',
  help: `Usage: tunesmith keys revoke KEY_ID

Revokes the key at once: requests with it get 401 from then on. KEY_ID is the key_… id from "keys list".

Options:
  -h, --help         show this help`,
  async run(args, io) {
    const parsed = parse(args, {}, { min: 1, max: 1, names: 'KEY_ID (see "tunesmith keys list")' });
    if (parsed === 'help') return printHelp(io, this.help);
    const keyId = positional(parsed, 0);
    const row = (await runOnDataDir(loadConfig(io.env), { command: 'keys.revoke', keyId })) as KeyRow;
    io.out(`Revoked key ${row.key_id} (${row.prefix}…) of account ${row.account_id} at ${row.revoked_at}.`);
    return 0;
  },
};

function table(rows: KeyRow[]): string {
  const header = ['KEY ID', 'PREFIX', 'ACCOUNT', 'PLAN', 'CREATED', 'LAST USED', 'REVOKED'];
  const cells = rows.map((row) => [
    row.key_id,
    `${row.prefix}…`,
    row.account_id,
    row.plan ?? '?',
    row.created_at,
    row.last_used_at ?? '-',
    row.revoked_at ?? '-',
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((line) => (line[column] ?? '').length)),
  );
  const format = (line: string[]) =>
    line
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [format(header), ...cells.map(format)].join('\n');
}
