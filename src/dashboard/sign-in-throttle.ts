/**
 * Slows repeated failed sign-ins. Each email and each address gets a few free failures; after that every
 * further failure doubles a waiting time (1 s, 2 s, 4 s … up to 15 min) during which sign-ins for it are
 * refused without checking the password. A success clears the email's count. Counts fade after an hour.
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

  failed(email: string, address: string, nowMs: number): void {
    this.#fail(`e:${email}`, FREE_FAILURES.email, nowMs);
    this.#fail(`a:${address}`, FREE_FAILURES.address, nowMs);
  }

  succeeded(email: string): void {
    this.#entries.delete(`e:${email}`);
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
    for (const [key, entry] of this.#entries) if (nowMs - entry.lastFailure > FORGET_AFTER_MS) this.#entries.delete(key);
    if (this.#entries.size >= MAX_ENTRIES) this.#entries.clear();
  }
}
