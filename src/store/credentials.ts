/**
 * What the dashboard needs to sign people in, kept beside accounts.json in the data dir as dashboard.json
 * (mode 0600): each account's email and password hash, live sessions and one-time sign-in links.
 * Session ids and link tokens are random secrets stored only as sha256 hashes, like API keys.
 * Small enough to load at open and serve from memory; every change is written atomically.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashSecret } from '../ids.ts';
import { EmailTakenError } from '../domain/errors.ts';
import { normalizeEmail } from '../email.ts';
import type { PasswordHash } from '../domain/model.ts';
import { parseDataFile, type CoalescingWriter } from './atomic-file.ts';
import type { CredentialRecords } from './repository.ts';
import { recordOfArrays } from './shape.ts';

export interface Credential {
  account_id: string;
  /** Lower-cased and trimmed: one account per address. */
  email: string;
  password: PasswordHash;
  created_at: string;
}

interface SessionRecord {
  id_hash: string;
  account_id: string;
  expires_at: string;
}

interface SignInLink {
  token_hash: string;
  account_id: string;
  expires_at: string;
}

interface CredentialsData {
  credentials: Credential[];
  sessions: SessionRecord[];
  sign_in_links: SignInLink[];
}

export interface Session {
  /** The secret that goes in the cookie; only its hash is stored. */
  id: string;
  account_id: string;
  expires_at: Date;
}

const FILE = 'dashboard.json';

export class CredentialStore implements CredentialRecords {
  readonly #path: string;
  readonly #writer: CoalescingWriter;
  readonly #data: CredentialsData;
  /** Emails between "free" and "saved": a second sign-up for one of them is refused at once. */
  readonly #claimed = new Set<string>();

  constructor(dataDir: string, writer: CoalescingWriter) {
    this.#path = join(dataDir, FILE);
    this.#writer = writer;
    this.#data = readData(this.#path);
  }

  async findByEmail(email: string): Promise<Credential | undefined> {
    return this.#byEmail(email);
  }

  #byEmail(email: string): Credential | undefined {
    const wanted = normalizeEmail(email);
    return this.#data.credentials.find((c) => c.email === wanted);
  }

  async forAccount(accountId: string): Promise<Credential | undefined> {
    return this.#ofAccount(accountId);
  }

  #ofAccount(accountId: string): Credential | undefined {
    return this.#data.credentials.find((c) => c.account_id === accountId);
  }

  /** Reserves an email for a sign-up in progress; the returned function releases it. */
  async claimEmail(email: string): Promise<() => void> {
    const wanted = normalizeEmail(email);
    if (this.#claimed.has(wanted) || this.#byEmail(wanted)) throw new EmailTakenError();
    this.#claimed.add(wanted);
    return () => this.#claimed.delete(wanted);
  }

  async addCredential(credential: Credential): Promise<void> {
    const email = normalizeEmail(credential.email);
    if (this.#byEmail(email) || this.#ofAccount(credential.account_id)) throw new EmailTakenError();
    const record = { ...credential, email };
    this.#data.credentials.push(record);
    try {
      await this.#save();
    } catch (error) {
      // Not on disk, so not at all: the sign-up that asked for it is undone, and the email stays free.
      this.#data.credentials = this.#data.credentials.filter((c) => c !== record);
      throw error;
    }
  }

  async createSession(accountId: string, now: Date, ttlMs: number): Promise<Session> {
    const id = randomBytes(32).toString('base64url');
    const expires = new Date(now.getTime() + ttlMs);
    this.#prune(now);
    this.#data.sessions.push({ id_hash: hashSecret(id), account_id: accountId, expires_at: expires.toISOString() });
    await this.#save();
    return { id, account_id: accountId, expires_at: expires };
  }

  /** The live session with this id, or undefined when unknown, ended or expired. */
  async findSession(id: string, now: Date): Promise<Session | undefined> {
    const hash = hashSecret(id);
    const record = this.#data.sessions.find((s) => s.id_hash === hash);
    if (!record || Date.parse(record.expires_at) <= now.getTime()) return undefined;
    return { id, account_id: record.account_id, expires_at: new Date(record.expires_at) };
  }

  async endSession(id: string): Promise<void> {
    const hash = hashSecret(id);
    const before = this.#data.sessions.length;
    this.#data.sessions = this.#data.sessions.filter((s) => s.id_hash !== hash);
    if (this.#data.sessions.length !== before) await this.#save();
  }

  /** A one-time sign-in token for an account (the first-start link). */
  async issueSignInToken(accountId: string, now: Date, ttlMs: number): Promise<string> {
    const token = randomBytes(24).toString('base64url');
    this.#prune(now);
    this.#data.sign_in_links.push({
      token_hash: hashSecret(token),
      account_id: accountId,
      expires_at: new Date(now.getTime() + ttlMs).toISOString(),
    });
    await this.#save();
    return token;
  }

  /** Uses up a sign-in token: its account id the first time, undefined ever after (or once expired). */
  /**
   * The sessions as stored (ids only as hashes, expired ones not yet pruned): what `tunesmith migrate` copies. An
   * expired one copied is never found, as here, and is pruned there.
   */
  storedSessions(): readonly Readonly<SessionRecord>[] {
    return this.#data.sessions;
  }

  async redeemSignInToken(token: string, now: Date): Promise<string | undefined> {
    const hash = hashSecret(token);
    const link = this.#data.sign_in_links.find((l) => l.token_hash === hash);
    if (!link) return undefined;
    this.#data.sign_in_links = this.#data.sign_in_links.filter((l) => l !== link);
    await this.#save();
    return Date.parse(link.expires_at) > now.getTime() ? link.account_id : undefined;
  }

  #prune(now: Date): void {
    const live = (r: { expires_at: string }) => Date.parse(r.expires_at) > now.getTime();
    this.#data.sessions = this.#data.sessions.filter(live);
    this.#data.sign_in_links = this.#data.sign_in_links.filter(live);
  }

  #save(): Promise<void> {
    return this.#writer.write(this.#path, () => JSON.stringify(this.#data), { mode: 0o600, backup: true });
  }
}

/** Read at open, synchronously, so the app can be built in one synchronous step. */
function readData(path: string): CredentialsData {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { credentials: [], sessions: [], sign_in_links: [] };
    throw error;
  }
  const parsed = parseDataFile<Partial<CredentialsData>>(path, text, (value) =>
    recordOfArrays(
      value,
      {
        credentials: ['account_id', 'email', 'created_at'],
        sessions: ['id_hash', 'account_id', 'expires_at'],
        sign_in_links: ['token_hash', 'account_id', 'expires_at'],
      },
      true,
    ),
  );
  return {
    credentials: parsed.credentials ?? [],
    sessions: parsed.sessions ?? [],
    sign_in_links: parsed.sign_in_links ?? [],
  };
}
