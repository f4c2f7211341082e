/** `tunesmith accounts set-plan`. */
import { loadConfig } from '../config.ts';
import { PLAN_NAMES, isPlanName } from '../plans.ts';
import type { AccountRow } from './admin-commands.ts';
import { runOnDataDir } from './data-dir-access.ts';
import { UsageError, parse, positiveInteger, printHelp, type Command } from './usage.ts';

export const accountsSetPlan: Command = {
  summary: "Change an account's plan (and Enterprise's custom figures)",
  help: `Usage: tunesmith accounts set-plan ACCOUNT_ID starter|developer|enterprise [--rpm N] [--monthly N]

Moves the account to the plan. Enterprise accounts may have custom figures:
  --rpm N            requests per minute for the account (Enterprise default 600)
  --monthly N        generations per month (Enterprise default unlimited)
  -h, --help         show this help`,
  async run(args, io) {
    const parsed = parse(args, { rpm: { type: 'string' }, monthly: { type: 'string' } }, { min: 2, max: 2, names: 'ACCOUNT_ID and PLAN' });
    if (parsed === 'help') return printHelp(io, this.help);
    const [accountId, plan] = parsed.positionals as [string, string];
    if (!isPlanName(plan)) throw new UsageError(`Unknown plan "${plan}". Use ${PLAN_NAMES.join(', ')}.`);
    const rpm = positiveInteger('--rpm', parsed.values.rpm);
    const monthly = positiveInteger('--monthly', parsed.values.monthly);
    if ((rpm !== undefined || monthly !== undefined) && plan !== 'enterprise') {
      throw new UsageError('--rpm and --monthly are Enterprise figures; use them with the enterprise plan.');
    }
    const row = (await runOnDataDir(loadConfig(io.env).dataDir, { command: 'accounts.set-plan', accountId, plan, rpm, monthly })) as AccountRow;
    io.out(`Account ${row.account_id} is on the ${row.plan} plan: ${row.monthly ?? 'unlimited'} generations/month, ${row.rpm} requests/min.`);
    return 0;
  },
};
