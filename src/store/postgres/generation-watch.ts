/**
 * watchGeneration across nodes: every committed change of a generation is announced on one channel with
 * pg_notify (payload "<node id> <generation id>"), and each node keeps one connection LISTENing to it. A node
 * hears its own changes straight from the commit (so a watcher on it hears them before the commit's promise
 * resolves, as with the file store) and skips their echo; another node's, it reads back and hands on, as the
 * row is when read: changes another node commits in quick succession may reach a watcher as the latest one
 * only (a long poll wants the state now; events that must each be delivered go through the outbox instead).
 *
 * Another node's change also wakes what must act on work recorded elsewhere (onOtherNodes: the webhook sender,
 * since a transition and its event commit together), on this same connection rather than one more per node.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { GenerationWatchers, type GenerationListener } from '../generation-watchers.ts';
import type { Generation } from '../../domain/model.ts';
import type { Queryable } from './rows.ts';

export const CHANNEL = 'tunesmith_generation';
const RECONNECT_MS = 1000;

export class GenerationWatch {
  readonly node = randomBytes(8).toString('hex');
  readonly #watchers = new GenerationWatchers();
  readonly #others = new Set<() => void>();
  readonly #connection: pg.ClientConfig;
  readonly #read: (id: string) => Promise<Generation | undefined>;
  readonly #warn: (message: string) => void;
  #client: pg.Client | null = null;
  /** Reads of other nodes' changes, handed on in the order they were heard. */
  #chain: Promise<void> = Promise.resolve();
  #closed = false;
  #retry: NodeJS.Timeout | null = null;
  #listened = false;

  constructor(
    connection: pg.ClientConfig,
    read: (id: string) => Promise<Generation | undefined>,
    warn: (message: string) => void,
  ) {
    this.#connection = connection;
    this.#read = read;
    this.#warn = warn;
  }

  async start(): Promise<void> {
    const client = new pg.Client(this.#connection);
    client.on('error', (error) => {
      this.#warn(`The connection listening for generation changes failed (${error.message}); reconnecting.`);
      this.#reconnect(client);
    });
    client.on('end', () => this.#reconnect(client));
    client.on('notification', (message) => this.#heard(message.payload ?? ''));
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    const reconnected = this.#listened;
    this.#client = client;
    this.#listened = true;
    // Changes committed while no connection listened were not heard: those who act on them look once now.
    if (reconnected) this.#wakeOthers();
  }

  /** Calls `listener` after each change another node commits (and after listening again following a drop). */
  onOtherNodes(listener: () => void): () => void {
    this.#others.add(listener);
    return () => this.#others.delete(listener);
  }

  /** The statement a transaction runs for each generation it changed, before COMMIT. */
  async announce(db: Queryable, ids: Iterable<string>): Promise<void> {
    for (const id of ids) await db.query('SELECT pg_notify($1, $2)', [CHANNEL, `${this.node} ${id}`]);
  }

  watch(id: string, listener: GenerationListener): () => void {
    return this.#watchers.watch(id, listener);
  }

  /** Whether anyone on this node watches the generation. */
  watching(id: string): boolean {
    return this.#watchers.watched(id);
  }

  /** A change this node committed. */
  notify(id: string, generation: Generation | undefined): void {
    this.#watchers.notify(id, generation);
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#retry) clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = null;
    await client?.end().catch(() => undefined);
    await this.#chain;
  }

  #heard(payload: string): void {
    const [node, id] = payload.split(' ');
    if (!id || node === this.node) return;
    this.#wakeOthers();
    if (!this.#watchers.watched(id)) return;
    this.#chain = this.#chain.then(async () => {
      try {
        this.notify(id, await this.#read(id));
      } catch (error) {
        this.#warn(`Could not read generation ${id} after another node changed it (${(error as Error).message}).`);
      }
    });
  }

  #wakeOthers(): void {
    for (const listener of this.#others) {
      try {
        listener();
      } catch (error) {
        this.#warn(`A listener for other nodes' changes failed (${(error as Error).message}).`);
      }
    }
  }

  #reconnect(client: pg.Client): void {
    if (this.#closed || this.#client !== client) return;
    this.#client = null;
    client.end().catch(() => undefined);
    this.#schedule();
  }

  #schedule(): void {
    if (this.#closed) return;
    this.#retry = setTimeout(() => {
      this.#retry = null;
      if (this.#closed) return;
      this.start().catch((error: Error) => {
        this.#warn(`Could not listen for generation changes (${error.message}); trying again.`);
        this.#schedule();
      });
    }, RECONNECT_MS);
    this.#retry.unref();
  }
}
