/** `tunesmith accounts set-plan` and `accounts signin-link`. */
import { loadConfig } from '../config.ts';
import { PLAN_NAMES, isPlanName } from '../domain/plans.ts';
import type { AccountRow, SignInLink } from './admin-commands.ts';
import { runOnDataDir } from './data-dir-access.ts';
import { UsageError, parse, positional, positiveInteger, printHelp, type Command } from './usage.ts';

export const accountsSetPlan: Command = {
  summary: "Change an account's plan (and Enterprise's custom figures)",
  help: `Usage: tunesmith accounts set-plan ACCOUNT_ID starter|developer|enterprise [--rpm N] [--monthly N]

Moves the account to the plan. Enterprise accounts may have custom figures:
  --rpm N            requests per minute for the account (Enterprise default 600)
  --monthly N        generations per month (Enterprise default unlimited)
  -h, --help         show this help`,
  async run(args, io) {
    const parsed = parse(
      args,
      { rpm: { type: 'string' }, monthly: { type: 'string' } },
      { min: 2, max: 2, names: 'ACCOUNT_ID and PLAN' },
    );
    if (parsed === 'help') return printHelp(io, this.help);
    const [accountId, plan] = parsed.positionals as [string, string];
    if (!isPlanName(plan)) throw new UsageError(`Unknown plan "${plan}". Use ${PLAN_NAMES.join(', ')}.`);
    const rpm = positiveInteger('--rpm', parsed.values.rpm);
    const monthly = positiveInteger('--monthly', parsed.values.monthly);
    if ((rpm !== undefined || monthly !== undefined) && plan !== 'enterprise') {
      throw new UsageError('--rpm and --monthly are Enterprise figures; use them with the enterprise plan.');
    }
    const row = (await runOnDataDir(loadConfig(io.env), {
      command: 'accounts.set-plan',
      accountId,
      plan,
      rpm,
      monthly,
    })) as AccountRow;
    io.out(
      `Account ${row.account_id} is on the ${row.plan} plan: ${row.monthly ?? 'unlimited'} generations/month, ${row.rpm} requests/min.`,
    );
    return 0;
  },
};

export const accountsSignInLink: Command = {
  summary: 'Print a one-time link that signs an account in to the dashboard',
  help: `Usage: tunesmith accounts signin-link ACCOUNT_ID [--json]

Prints a link that signs the account in to the dashboard once, valid 7 days: for a lost first-start link or a
forgotten password (once signed in, the Overview page sets a new one). Run "tunesmith keys list" for account ids.
  --json             print {"account_id","url","expires_at"}
  -h, --help         show this help`,
  async run(args, io) {
    const parsed = parse(args, { json: { type: 'boolean' } }, { min: 1, max: 1, names: 'ACCOUNT_ID' });
    if (parsed === 'help') return printHelp(io, this.help);
    const publicUrlGiven = ['TUNESMITH_PUBLIC_URL', 'PORT', 'HOST'].some((name) => (io.env[name] ?? '').trim() !== '');
    const link = (await runOnDataDir(
      { ...loadConfig(io.env), publicUrlGiven },
      { command: 'accounts.signin-link', accountId: positional(parsed, 0) },
    )) as SignInLink;
    io.out(
      parsed.values.json
        ? JSON.stringify(link)
        : `Sign in to the dashboard as ${link.account_id} (one time, until ${link.expires_at}):\n\n  ${link.url}\n`,
    );
    return 0;
  },
};
