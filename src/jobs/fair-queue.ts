/**
 * Waiting tasks, served by plan rank, then round-robin between accounts: every task of a better rank (a lower
 * number: Enterprise before Developer before Starter by default, src/domain/plans.ts) starts before any of a worse one,
 * and within a rank the next task comes from the account with work that was served least recently, so one
 * account's burst cannot starve another's single task. Within an account, first in, first out (a retried task
 * goes back to the front of its account's line).
 */
export interface QueuedTask {
  id: string;
  account_id: string;
}

export class FairQueue<T extends QueuedTask> {
  readonly #byAccount = new Map<string, T[]>();
  /** When each account was last served (a counter); never-served accounts go first. */
  readonly #lastServed = new Map<string, number>();
  #serves = 0;
  #order: T[] | null = null;
  #positions: Map<string, number> | null = null;
  readonly #rankOf: (accountId: string) => number;

  /** @param rankOf an account's rank; read whenever the order is worked out, so a changed rank applies at once. */
  constructor(rankOf: (accountId: string) => number = () => 0) {
    this.#rankOf = rankOf;
  }

  get size(): number {
    let size = 0;
    for (const line of this.#byAccount.values()) size += line.length;
    return size;
  }

  push(task: T): void {
    this.#line(task.account_id).push(task);
    this.#changed();
  }

  pushFront(task: T): void {
    this.#line(task.account_id).unshift(task);
    this.#changed();
  }

  /** The next task to start, or undefined when nothing waits. */
  shift(): T | undefined {
    const [turn] = this.#turns();
    if (turn === undefined) return undefined;
    const [account, line] = turn;
    const task = line.shift();
    if (line.length === 0) this.#byAccount.delete(account);
    this.#lastServed.set(account, ++this.#serves);
    this.#changed();
    return task;
  }

  has(id: string): boolean {
    return this.#positionMap().has(id);
  }

  /** How many tasks start before this one; undefined when it is not waiting here. */
  position(id: string): number | undefined {
    return this.#positionMap().get(id);
  }

  /** Every waiting task in the order they will start. */
  order(): readonly T[] {
    if (this.#order) return this.#order;
    // Rank by rank; within a rank, round r of the rotation serves each account's r-th task, accounts in turn order.
    const turns = this.#turns();
    const order: T[] = [];
    for (const rank of [...new Set(turns.map(([account]) => this.#rankOf(account)))]) {
      const lines = turns.filter(([account]) => this.#rankOf(account) === rank).map(([, line]) => line);
      const longest = Math.max(0, ...lines.map((line) => line.length));
      for (let round = 0; round < longest; round++) {
        for (const line of lines) {
          const task = line[round];
          if (task) order.push(task);
        }
      }
    }
    this.#order = order;
    return order;
  }

  /** Takes one task out of the line (a cancel); false when it is not waiting here. */
  remove(id: string): boolean {
    for (const [account, line] of this.#byAccount) {
      const at = line.findIndex((task) => task.id === id);
      if (at === -1) continue;
      line.splice(at, 1);
      if (line.length === 0) this.#byAccount.delete(account);
      this.#changed();
      return true;
    }
    return false;
  }

  /** Removes and returns everything waiting. */
  drain(): T[] {
    const all = [...this.order()];
    this.#byAccount.clear();
    this.#changed();
    return all;
  }

  #line(account: string): T[] {
    let line = this.#byAccount.get(account);
    if (!line) {
      line = [];
      this.#byAccount.set(account, line);
    }
    return line;
  }

  /** Accounts with waiting work and their lines, best rank first, then least recently served (ties in order of arrival). */
  #turns(): [string, T[]][] {
    const served = (account: string): number => this.#lastServed.get(account) ?? 0;
    return [...this.#byAccount].sort(([a], [b]) => this.#rankOf(a) - this.#rankOf(b) || served(a) - served(b));
  }

  /** An account's rank changed (its plan did): the order is worked out again. */
  reranked(): void {
    this.#changed();
  }

  #positionMap(): Map<string, number> {
    if (!this.#positions) this.#positions = new Map(this.order().map((task, index) => [task.id, index]));
    return this.#positions;
  }

  #changed(): void {
    this.#order = null;
    this.#positions = null;
  }
}
