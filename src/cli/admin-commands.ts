/**
 * The key and account commands, as functions of the Repository. The CLI runs them on the store itself when
 * no server owns the data dir, and the server runs them for the CLI (over the admin channel) when one
 * does, so both paths share one implementation and never race each other's writes.
 */
import { isPlanName, limitsFor } from '../domain/plans.ts';
import type { Repository } from '../store/repository.ts';
import { Accounts } from '../domain/accounts.ts';
import { NotFoundError } from '../domain/errors.ts';
import type { PlanName } from '../domain/model.ts';

/** What admin commands act on: the records (sign-in data included), and where the dashboard is reached. */
export interface AdminContext {
  repository: Repository;
  publicUrl: string;
}

/** How long a sign-in link works: the first-start banner's and the CLI's alike. */
export const SIGN_IN_LINK_TTL_MS = 7 * 24 * 3600 * 1000;

export interface SignInLink {
  account_id: string;
  url: string;
  expires_at: string;
}

export interface CreatedKey {
  key: string;
  key_id: string;
  account_id: string;
  plan: PlanName;
}

export interface KeyRow {
  key_id: string;
  prefix: string;
  account_id: string;
  plan: PlanName | null;
  name: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface AccountRow {
  account_id: string;
  plan: PlanName;
  rpm: number;
  monthly: number | null;
}

export type AdminRequest =
  | { command: 'keys.create'; plan?: PlanName; account?: string; email?: string | null; name?: string | null }
  | { command: 'keys.list' }
  | { command: 'keys.revoke'; keyId: string }
  | { command: 'accounts.set-plan'; accountId: string; plan: PlanName; rpm?: number | null; monthly?: number | null }
  | { command: 'accounts.signin-link'; accountId: string };

/** A request the command itself refuses (bad plan, unknown id): the CLI shows the message and exits 1. */
export class AdminCommandError extends Error {
  override name = 'AdminCommandError' as const;
}

export async function runAdminCommand(context: AdminContext, request: AdminRequest): Promise<unknown> {
  const { repository: store } = context;
  try {
    switch (request.command) {
      case 'keys.create':
        return await createKey(store, request);
      case 'keys.list':
        return await listKeys(store);
      case 'keys.revoke':
        return await revokeKey(store, request.keyId);
      case 'accounts.set-plan':
        return await setPlan(store, request);
      case 'accounts.signin-link':
        return await signInLink(context, request.accountId);
      default:
        throw new AdminCommandError(
          `Unknown admin command ${JSON.stringify((request as { command: unknown }).command)}.`,
        );
    }
  } catch (error) {
    if (error instanceof NotFoundError) throw new AdminCommandError(error.message);
    throw error;
  }
}

async function createKey(
  store: Repository,
  request: Extract<AdminRequest, { command: 'keys.create' }>,
): Promise<CreatedKey> {
  const accounts = new Accounts({ repository: store, now: () => new Date() });
  const name = request.name ?? null;
  if (request.account !== undefined) {
    const account = await accounts.get(request.account);
    if (!account) throw new AdminCommandError(`No account with id ${request.account}.`);
    const { key, record } = await accounts.createKey(account.id, name);
    return { key, key_id: record.id, account_id: account.id, plan: account.plan };
  }
  if (!isPlanName(request.plan))
    throw new AdminCommandError('A new key needs --plan starter, developer or enterprise (or --account ACCOUNT_ID).');
  const { account, key, record } = await accounts.open(request.plan, { email: request.email ?? null, name }, name);
  return { key, key_id: record.id, account_id: account.id, plan: account.plan };
}

async function listKeys(store: Repository): Promise<KeyRow[]> {
  const plans = new Map((await store.listAccounts()).map((account) => [account.id, account.plan]));
  return (await store.listKeys())
    .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0))
    .map((key) => ({
      key_id: key.id,
      prefix: key.prefix,
      account_id: key.account_id,
      plan: plans.get(key.account_id) ?? null,
      name: key.name,
      created_at: key.created_at,
      last_used_at: key.last_used_at,
      revoked_at: key.revoked_at,
    }));
}

async function revokeKey(store: Repository, keyId: string): Promise<KeyRow> {
  const key = await store.revokeKey(keyId);
  return {
    key_id: key.id,
    prefix: key.prefix,
    account_id: key.account_id,
    plan: (await store.getAccount(key.account_id))?.plan ?? null,
    name: key.name,
    created_at: key.created_at,
    last_used_at: key.last_used_at,
    revoked_at: key.revoked_at,
  };
}

async function setPlan(
  store: Repository,
  request: Extract<AdminRequest, { command: 'accounts.set-plan' }>,
): Promise<AccountRow> {
  if (!isPlanName(request.plan))
    throw new AdminCommandError(`Unknown plan "${String(request.plan)}". Use starter, developer or enterprise.`);
  const custom = request.rpm != null || request.monthly != null;
  if (custom && request.plan !== 'enterprise') {
    throw new AdminCommandError('--rpm and --monthly are Enterprise figures; use them with the enterprise plan.');
  }
  // An unknown account is a NotFoundError, which runAdminCommand turns into this command's refusal.
  const account = await new Accounts({ repository: store, now: () => new Date() }).setPlan(
    request.accountId,
    request.plan,
    request,
  );
  const limits = limitsFor(account);
  return { account_id: account.id, plan: account.plan, rpm: limits.rpm, monthly: limits.monthly };
}

/** A one-time link that signs the account in to the dashboard (a lost first-start link, a forgotten password). */
async function signInLink({ repository, publicUrl }: AdminContext, accountId: string): Promise<SignInLink> {
  if (!(await repository.getAccount(accountId))) throw new AdminCommandError(`No account with id ${accountId}.`);
  const now = new Date();
  const token = await repository.credentials.issueSignInToken(accountId, now, SIGN_IN_LINK_TTL_MS);
  return {
    account_id: accountId,
    url: `${publicUrl}/signin/${token}`,
    expires_at: new Date(now.getTime() + SIGN_IN_LINK_TTL_MS).toISOString(),
  };
}
