/**
 * The accounts module (src/domain/accounts.ts) over a real file store in a temp dir: what the dashboard's and the
 * CLI's tests reach through pages and commands, checked at the module's own door.
 */
import test, { type ExecutionContext } from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Accounts } from '../src/domain/accounts.ts';
import { AuthenticationError, EmailTakenError, NotFoundError } from '../src/domain/errors.ts';
import type { PasswordHash } from '../src/domain/model.ts';
import { openStore } from '../src/store/index.ts';

const HASH: PasswordHash = { algorithm: 'scrypt', N: 16384, r: 8, p: 1, salt: 'salt', hash: 'hash' };

async function setup(t: ExecutionContext) {
  const dataDir = await mkdtemp(join(tmpdir(), 'tunesmith-accounts-'));
  t.teardown(() => rm(dataDir, { recursive: true, force: true }));
  const store = await openStore({ dataDir });
  t.teardown(() => store.close());
  return { store, accounts: new Accounts({ repository: store, now: () => new Date() }) };
}

test('a sign-up makes a Starter account with a password, and a second one for the same email is refused', async (t) => {
  const { accounts } = await setup(t);
  const account = await accounts.signUp('a@example.com', HASH);
  t.is(account.plan, 'starter');
  t.true(await accounts.hasPassword(account.id));
  await t.throwsAsync(accounts.signUp('a@example.com', HASH), { instanceOf: EmailTakenError });
});

test('a key authenticates its account until it is revoked, and another account cannot revoke it', async (t) => {
  const { accounts, store } = await setup(t);
  const owner = await store.createAccount({ plan: 'developer' });
  const other = await store.createAccount({ plan: 'developer' });
  const { key, record } = await accounts.createKey(owner.id, 'ci');
  t.is((await accounts.authenticate(key)).account.id, owner.id);
  t.is(await accounts.revokeKey(other.id, record.id), undefined);
  t.truthy((await accounts.revokeKey(owner.id, record.id))?.revoked_at);
  await t.throwsAsync(accounts.authenticate(key), { instanceOf: AuthenticationError, message: /revoked/ });
});

test('leaving Enterprise drops its custom figures; a change on Enterprise keeps the figures not given', async (t) => {
  const { accounts, store } = await setup(t);
  const account = await store.createAccount({ plan: 'developer' });
  await accounts.setPlan(account.id, 'enterprise', { rpm: 500, monthly: 9000 });
  t.like(await accounts.setPlan(account.id, 'enterprise', { rpm: 600 }), { rpm: 600, monthly: 9000 });
  t.like(await accounts.setPlan(account.id, 'developer'), { plan: 'developer', rpm: null, monthly: null });
  await t.throwsAsync(accounts.setPlan('acct_unknown', 'starter'), { instanceOf: NotFoundError });
});

test('an account opened on a plan comes with its first key, which authenticates it', async (t) => {
  const { accounts } = await setup(t);
  const { account, key, record } = await accounts.open('enterprise', { name: 'ops' }, 'first');
  t.like(account, { plan: 'enterprise', name: 'ops', email: null });
  t.is(record.name, 'first');
  t.is((await accounts.authenticate(key)).account.id, account.id);
});
