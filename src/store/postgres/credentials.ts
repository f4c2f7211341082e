/**
 * The dashboard's sign-in records in PostgreSQL: credentials (one per account and per email, both unique in the
 * schema, so two nodes signing the same email up at once end with one account), sessions and one-time sign-in
 * links, the secrets of the last two stored only as sha256 hashes.
 */
import { randomBytes } from 'node:crypto';
import { hashSecret } from '../../ids.ts';
import { EmailTakenError } from '../../domain/errors.ts';
import { normalizeEmail } from '../../email.ts';
import type { Credential, Session } from '../credentials.ts';
import type { CredentialRecords } from '../repository.ts';
import { isUniqueViolation, toCredential, type Queryable } from './rows.ts';

export class PostgresCredentials implements CredentialRecords {
  /**
   * Emails between "free" and "saved" on this node: a second sign-up here is refused at once. Across nodes the
   * unique email of the credentials table decides, when the credential is added.
   */
  readonly #claimed = new Set<string>();

  constructor(private readonly db: Queryable) {}

  async findByEmail(email: string): Promise<Credential | undefined> {
    const { rows } = await this.db.query('SELECT * FROM credentials WHERE email = $1', [normalizeEmail(email)]);
    return rows[0] && toCredential(rows[0]);
  }

  async forAccount(accountId: string): Promise<Credential | undefined> {
    const { rows } = await this.db.query('SELECT * FROM credentials WHERE account_id = $1', [accountId]);
    return rows[0] && toCredential(rows[0]);
  }

  async claimEmail(email: string): Promise<() => void> {
    const wanted = normalizeEmail(email);
    if (this.#claimed.has(wanted)) throw new EmailTakenError();
    this.#claimed.add(wanted);
    try {
      if (await this.findByEmail(wanted)) throw new EmailTakenError();
    } catch (error) {
      this.#claimed.delete(wanted);
      throw error;
    }
    return () => this.#claimed.delete(wanted);
  }

  async addCredential(credential: Credential): Promise<void> {
    try {
      await this.db.query('INSERT INTO credentials (account_id, email, password, created_at) VALUES ($1, $2, $3, $4)', [
        credential.account_id,
        normalizeEmail(credential.email),
        JSON.stringify(credential.password),
        credential.created_at,
      ]);
    } catch (error) {
      if (isUniqueViolation(error)) throw new EmailTakenError();
      throw error;
    }
  }

  async createSession(accountId: string, now: Date, ttlMs: number): Promise<Session> {
    const id = randomBytes(32).toString('base64url');
    const expires = new Date(now.getTime() + ttlMs);
    await this.#prune(now);
    await this.db.query('INSERT INTO sessions (id_hash, account_id, expires_at) VALUES ($1, $2, $3)', [
      hashSecret(id),
      accountId,
      expires,
    ]);
    return { id, account_id: accountId, expires_at: expires };
  }

  async findSession(id: string, now: Date): Promise<Session | undefined> {
    const { rows } = await this.db.query(
      'SELECT account_id, expires_at FROM sessions WHERE id_hash = $1 AND expires_at > $2',
      [hashSecret(id), now],
    );
    const row = rows[0];
    return row && { id, account_id: row.account_id, expires_at: row.expires_at };
  }

  async endSession(id: string): Promise<void> {
    await this.db.query('DELETE FROM sessions WHERE id_hash = $1', [hashSecret(id)]);
  }

  async issueSignInToken(accountId: string, now: Date, ttlMs: number): Promise<string> {
    const token = randomBytes(24).toString('base64url');
    await this.#prune(now);
    await this.db.query('INSERT INTO sign_in_links (token_hash, account_id, expires_at) VALUES ($1, $2, $3)', [
      hashSecret(token),
      accountId,
      new Date(now.getTime() + ttlMs),
    ]);
    return token;
  }

  /** The DELETE … RETURNING makes it once only, whichever node redeems it. */
  async redeemSignInToken(token: string, now: Date): Promise<string | undefined> {
    const { rows } = await this.db.query(
      'DELETE FROM sign_in_links WHERE token_hash = $1 RETURNING account_id, expires_at',
      [hashSecret(token)],
    );
    const link = rows[0];
    return link && (link.expires_at as Date).getTime() > now.getTime() ? (link.account_id as string) : undefined;
  }

  async #prune(now: Date): Promise<void> {
    await this.db.query('DELETE FROM sessions WHERE expires_at <= $1', [now]);
    await this.db.query('DELETE FROM sign_in_links WHERE expires_at <= $1', [now]);
  }
}
