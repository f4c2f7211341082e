/**
 * Accounts as the API, the dashboard and the CLI use them: the account of an API key, signing up with an email
 * and a password, adding a password to an account made without one, an account's keys, and its plan. Handlers
 * and commands parse, call this, and answer; the records are the repository's.
 */
import { AuthenticationError, NotFoundError } from './errors.ts';
import type { Account, ApiKey, PasswordHash, PlanName } from './model.ts';
import type { Repository } from '../store/repository.ts';

export interface AccountsOptions {
  repository: Repository;
  now: () => Date;
}

export class Accounts {
  readonly #repository: Repository;
  readonly #now: () => Date;

  constructor(options: AccountsOptions) {
    this.#repository = options.repository;
    this.#now = options.now;
  }

  get(accountId: string): Promise<Account | undefined> {
    return this.#repository.getAccount(accountId);
  }

  /** The account and key of a presented API key; AuthenticationError when the key is unknown or revoked. */
  async authenticate(secret: string): Promise<{ account: Account; key: ApiKey }> {
    const key = await this.#repository.findKey(secret);
    if (!key) throw new AuthenticationError('invalid_api_key');
    if (key.revoked_at !== null) throw new AuthenticationError('revoked_api_key');
    const account = await this.#repository.getAccount(key.account_id);
    if (!account) throw new AuthenticationError('invalid_api_key');
    // Last use is a convenience: a failure to note it must not fail the request.
    this.#repository.touchKey(key.id, this.#now()).catch(() => undefined);
    return { account, key };
  }

  /**
   * A new Starter account that signs in with this email and password (already hashed, and the email normalized).
   * EmailTakenError when the email has an account or is being signed up right now.
   */
  async signUp(email: string, password: PasswordHash): Promise<Account> {
    const credentials = this.#repository.credentials;
    const release = await credentials.claimEmail(email);
    try {
      const account = await this.#repository.createAccount({ email, plan: 'starter' });
      try {
        await credentials.addCredential({ account_id: account.id, email, password, created_at: account.created_at });
      } catch (error) {
        // Without its credential nobody could ever sign in to the account, and it would hold the email.
        // (An EmailTakenError here: a sign-up on another node that shares the records took the email since the claim.)
        await this.#repository.deleteAccount(account.id).catch(() => undefined);
        throw error;
      }
      return account;
    } finally {
      release();
    }
  }

  /** Whether the account can sign in with an email and password (the first-start one cannot, until it sets them). */
  async hasPassword(accountId: string): Promise<boolean> {
    return (await this.#repository.credentials.forAccount(accountId)) !== undefined;
  }

  /**
   * Lets an account made without a password (the first-start one, signed in by its link) sign in with this email
   * and password from now on; the account shows the email as who it is. EmailTakenError as for signUp.
   */
  async setPassword(accountId: string, email: string, password: PasswordHash): Promise<void> {
    const credentials = this.#repository.credentials;
    const release = await credentials.claimEmail(email);
    try {
      await credentials.addCredential({
        account_id: accountId,
        email,
        password,
        created_at: this.#now().toISOString(),
      });
      await this.#repository.updateAccount(accountId, { email });
    } finally {
      release();
    }
  }

  /** The account's keys, revoked ones included, in no particular order. */
  keys(accountId: string): Promise<ApiKey[]> {
    return this.#repository.listKeys(accountId);
  }

  /**
   * A new account on `plan` with its first key (the key itself is in this answer only): the first start's local
   * account, and `tunesmith keys create --plan`.
   */
  async open(
    plan: PlanName,
    who: { email?: string | null; name?: string | null },
    keyName: string | null,
  ): Promise<{ account: Account; key: string; record: ApiKey }> {
    const account = await this.#repository.createAccount({ plan, email: who.email ?? null, name: who.name ?? null });
    return { account, ...(await this.#repository.createKey(account.id, keyName)) };
  }

  /** A new key for the account: the key itself is in this answer only, and never stored. */
  createKey(accountId: string, name: string | null): Promise<{ key: string; record: ApiKey }> {
    return this.#repository.createKey(accountId, name);
  }

  /** Revokes the account's key; undefined when it has no key with this id (another account's is unknown alike). */
  async revokeKey(accountId: string, keyId: string): Promise<ApiKey | undefined> {
    const key = (await this.#repository.listKeys(accountId)).find((k) => k.id === keyId);
    return key && this.#repository.revokeKey(key.id);
  }

  /**
   * Moves the account to a plan. Leaving a plan drops its custom figures; on Enterprise, figures not given keep
   * their current value. NotFoundError for an unknown account.
   */
  async setPlan(
    accountId: string,
    plan: PlanName,
    custom: { rpm?: number | null | undefined; monthly?: number | null | undefined } = {},
  ): Promise<Account> {
    const keep = plan === 'enterprise';
    const current = await this.#repository.getAccount(accountId);
    if (!current) throw new NotFoundError('account', accountId);
    return this.#repository.updateAccount(accountId, {
      plan,
      rpm: custom.rpm ?? (keep ? current.rpm : null),
      monthly: custom.monthly ?? (keep ? current.monthly : null),
    });
  }
}
