/**
 * Slows repeated failed sign-ins. Each email and each address gets a few free failures; after that every
 * further failure doubles a waiting time (1 s, 2 s, 4 s … up to 15 min) during which sign-ins for it are
 * refused without checking the password. A success clears the email's count. Counts fade after an hour.
 *
 * An attempt is counted as failed when it begins, before the slow password check, and taken back if it
 * succeeds: counted afterwards, many parallel guesses would all pass the check before any was recorded.
 */
export const FREE_FAILURES = { email: 3, address: 20 } as const;
const MAX_WAIT_MS = 15 * 60_000;
const FORGET_AFTER_MS = 60 * 60_000;
const MAX_ENTRIES = 50_000;

interface Entry {
  failures: number;
  lastFailure: number;
  blockedUntil: number;
}

export class SignInThrottle {
  readonly #entries = new Map<string, Entry>();

  /** Seconds to wait before the next attempt for this email or address (0 = go ahead). */
  waitSeconds(email: string, address: string, nowMs: number): number {
    const until = Math.max(this.#blockedUntil(`e:${email}`, nowMs), this.#blockedUntil(`a:${address}`, nowMs));
    return until > nowMs ? Math.ceil((until - nowMs) / 1000) : 0;
  }

  /**
   * Starts an attempt: the seconds to wait when the email or address is held back (nothing is recorded),
   * otherwise 0, with the attempt already counted as a failure until `succeeded` says otherwise.
   */
  begin(email: string, address: string, nowMs: number): number {
    const wait = this.waitSeconds(email, address, nowMs);
    if (wait === 0) this.failed(email, address, nowMs);
    return wait;
  }

  failed(email: string, address: string, nowMs: number): void {
    this.#fail(`e:${email}`, FREE_FAILURES.email, nowMs);
    this.#fail(`a:${address}`, FREE_FAILURES.address, nowMs);
  }

  /** The attempt begun for this email and address was right: the email starts afresh, the address gets its count back. */
  succeeded(email: string, address: string): void {
    this.#entries.delete(`e:${email}`);
    const entry = this.#entries.get(`a:${address}`);
    if (!entry) return;
    entry.failures = Math.max(0, entry.failures - 1);
    if (entry.failures <= FREE_FAILURES.address) entry.blockedUntil = 0;
  }

  #blockedUntil(key: string, nowMs: number): number {
    const entry = this.#entries.get(key);
    if (!entry) return 0;
    if (nowMs - entry.lastFailure > FORGET_AFTER_MS) {
      this.#entries.delete(key);
      return 0;
    }
    return entry.blockedUntil;
  }

  #fail(key: string, free: number, nowMs: number): void {
    if (this.#entries.size >= MAX_ENTRIES) this.#sweep(nowMs);
    const entry = this.#entries.get(key) ?? { failures: 0, lastFailure: nowMs, blockedUntil: 0 };
    if (nowMs - entry.lastFailure > FORGET_AFTER_MS) entry.failures = 0;
    entry.failures += 1;
    entry.lastFailure = nowMs;
    const over = entry.failures - free;
    if (over > 0) entry.blockedUntil = nowMs + Math.min(MAX_WAIT_MS, 1000 * 2 ** (over - 1));
    this.#entries.set(key, entry);
  }

  #sweep(nowMs: number): void {
    for (const [key, entry] of this.#entries)
      if (nowMs - entry.lastFailure > FORGET_AFTER_MS) this.#entries.delete(key);
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear();
  }
}
