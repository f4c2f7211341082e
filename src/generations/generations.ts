/**
 * Generations as the API, the dashboard and the download links use them: creating one (plan rules, quota and
 * idempotency, then the render queue), finding and listing an account's own, cancelling, deleting with its
 * files, presenting, and opening a stored file. Handlers parse, call this, and respond.
 */
import type { Readable } from 'node:stream';
import type { GenerationRequest } from '../../engine/index.ts';
import { GenerationStateError, ServiceUnavailableError } from '../http/errors.ts';
import { newBatchId } from '../ids.ts';
import type { DownloadSigner } from '../http/signing.ts';
import type { JobQueue } from '../jobs/types.ts';
import { limitsFor } from '../plans.ts';
import type { BlobInfo, BlobRange, BlobStore } from '../store/blob-store.ts';
import type { Repository } from '../store/repository.ts';
import { BlobNotFoundError } from '../store/errors.ts';
import { storedFiles, type Account, type Generation, type ListOptions, type NewGeneration } from '../store/types.ts';
import { checkPlan, type PlanAsk } from '../plan-gate.ts';
import { assertDerivable, derivedInput, type Derivation } from './derive.ts';
import { DOWNLOADS, STEM_CONTENT_TYPE, type DownloadKind } from './files.ts';
import { isTerminal, presentGeneration, type Expandable, type GenerationObject } from './present.ts';

/** A validated request for a new task: its fields less the account (from the key) and the request id. */
export type GenerationInput = Omit<NewGeneration, 'account_id' | 'request_id'>;

export interface CreateOptions {
  idempotency?: { key: string; bodyHash: string } | undefined;
  /** The X-Request-Id of the asking request, kept with the task for its log lines. */
  requestId?: string | undefined;
}

/** A stored file of a generation, ready to be read whole or by range. */
export interface StoredFile extends BlobInfo {
  generation: Generation;
  open(range?: BlobRange): ReturnType<BlobStore['open']>;
}

export interface GenerationsOptions {
  repository: Repository;
  blobs: BlobStore;
  jobs: JobQueue;
  /** The engine's check that lyrics fit the track (throws its own errors). */
  checkLyrics(request: GenerationRequest): void;
  /** Checks a callback_url by the webhooks' rules; absent where nothing would send webhooks. */
  checkCallbackUrl?: ((url: string, param: string) => Promise<void>) | undefined;
  signer: DownloadSigner;
  now: () => Date;
}

/** What a request for a new task asks of the plan: its audio, stems, webhooks, and fields of full API access. */
function askOf(request: GenerationInput): PlanAsk {
  const fullAccess =
    request.plan !== undefined
      ? { param: 'sections', feature: 'Composition plans (sections)' }
      : request.music !== undefined
        ? { param: Object.keys(request.music)[0], feature: 'Musical fields (bpm, key, time signature, ...)' }
        : undefined;
  return {
    encoding: request.encoding,
    stems: request.stems,
    callbackUrl: request.callback_url !== null,
    fullAccess,
  };
}

/** Ids are URL-safe base64ish; anything else cannot exist, so it is not looked up. */
const PLAUSIBLE_ID = /^[A-Za-z0-9_-]{1,64}$/;

export class Generations {
  readonly #o: GenerationsOptions;

  constructor(options: GenerationsOptions) {
    this.#o = options;
  }

  /** Checks the plan's rules, reserves a unit of quota and saves the task (one atomic step), then queues it. */
  async create(
    account: Account,
    request: GenerationInput,
    options: CreateOptions = {},
    /** What the plan judges; by default everything the request holds (a derived task passes its own ask). */
    ask: PlanAsk = askOf(request),
  ): Promise<{ generation: Generation; replayed: boolean }> {
    await this.#check(account, request, ask);
    const result = await this.#o.repository.createGeneration(
      { account_id: account.id, ...request, request_id: options.requestId ?? null },
      { monthlyQuota: limitsFor(account).monthly, idempotency: options.idempotency, now: this.#o.now() },
    );
    if (!result.replayed) this.#o.jobs.enqueue(result.generation, limitsFor(account).priority);
    return result;
  }

  /**
   * `variations`: the same request with each variation's seed, saved as one batch (the quota takes all of them
   * or none is made), then queued. Each request is checked as `create` checks one.
   */
  async createBatch(
    account: Account,
    requests: readonly GenerationInput[],
    options: CreateOptions = {},
  ): Promise<{ batchId: string; generations: Generation[]; replayed: boolean }> {
    for (const request of requests)
      await this.#check(account, request, {
        ...askOf(request),
        fullAccess: { param: 'variations', feature: 'Variations (several tracks from one request)' },
      });
    const id = newBatchId();
    const result = await this.#o.repository.createGenerations(
      requests.map((request, index) => ({
        account_id: account.id,
        ...request,
        request_id: options.requestId ?? null,
        batch: { id, index, size: requests.length },
      })),
      { monthlyQuota: limitsFor(account).monthly, idempotency: options.idempotency, now: this.#o.now() },
    );
    if (!result.replayed)
      for (const generation of result.generations) this.#o.jobs.enqueue(generation, limitsFor(account).priority);
    return {
      batchId: result.generations[0]?.batch?.id ?? id,
      generations: result.generations,
      replayed: result.replayed,
    };
  }

  /**
   * A task made from a completed generation of the account (extend, or redo a section): refused with a 409 when
   * the source cannot be spliced, a 400 when the result would be outside the duration limits; then created as any
   * task is (quota, idempotency, queue). Its render reads the source's audio (src/jobs/splice-source.ts).
   */
  async derive(
    account: Account,
    source: Generation,
    derivation: Derivation,
    limits: { min: number; max: number },
    options: CreateOptions = {},
  ): Promise<{ generation: Generation; replayed: boolean }> {
    // The call itself first: a plan without it learns that, not why this source could not be derived.
    const ask: PlanAsk = {
      fullAccess: {
        param: undefined,
        feature: derivation.operation === 'extend' ? 'Extending tracks' : 'Remixing sections of tracks',
      },
    };
    checkPlan(account, ask);
    const played = assertDerivable(source, derivation.operation);
    const input = derivedInput(source, played, derivation, limits);
    // The source's callback_url is inherited, not asked for: only what the new request asks for is judged by the
    // plan, so an account whose plan has lost webhooks since derives without it rather than being refused.
    const inherited = limitsFor(account).webhooks ? input : { ...input, callback_url: null };
    // The source's quality and stems are inherited too: the plan judges the call itself.
    return this.create(account, inherited, options, ask);
  }

  async #check(account: Account, request: GenerationInput, ask: PlanAsk): Promise<void> {
    // Lyrics that cannot be sung (too many lines for the track) are refused now, not a failed task later.
    if (request.lyrics !== null) this.#o.checkLyrics(request);
    checkPlan(account, ask);
    if (request.callback_url !== null) {
      // Refused where nothing would send it (the same 503 as /v1/webhooks), and checked by the webhooks' own rules.
      if (!this.#o.checkCallbackUrl) throw new ServiceUnavailableError('Webhooks are not running on this server.');
      await this.#o.checkCallbackUrl(request.callback_url, 'callback_url');
    }
  }

  /** The account's generation with this id; undefined for an unknown id and for another account's alike. */
  async find(accountId: string, id: string): Promise<Generation | undefined> {
    return PLAUSIBLE_ID.test(id) ? this.#o.repository.getGeneration(accountId, id) : undefined;
  }

  list(accountId: string, options: ListOptions): Promise<{ items: Generation[]; total: number }> {
    return this.#o.repository.listGenerations(accountId, options);
  }

  /** Generations counted against the account's quota in a month ("YYYY-MM"). */
  usage(accountId: string, month: string): Promise<number> {
    return this.#o.repository.usage(accountId, month);
  }

  /** Stops a task in progress: it ends failed with code cancelled (a render that finished first stays completed). */
  async cancel(generation: Generation): Promise<Generation> {
    if (isTerminal(generation.status)) throw new GenerationStateError('generation_finished', generation.status);
    return this.#o.jobs.cancel(generation);
  }

  /** Removes a finished task and its files; its quota unit stays spent. */
  async delete(generation: Generation): Promise<void> {
    if (!isTerminal(generation.status)) throw new GenerationStateError('generation_not_finished', generation.status);
    // The files first: should removing one fail, the record stays and the delete can be asked again.
    await Promise.all(storedFiles(generation.files).map((key) => this.#o.blobs.delete(key)));
    await this.#o.repository.deleteGeneration(generation.id);
  }

  /** Calls `listener` after each saved change of the task (undefined once deleted); returns the function that stops it. */
  watch(id: string, listener: (generation: Generation | undefined) => void): () => void {
    return this.#o.repository.watchGeneration(id, listener);
  }

  /** The generation object of the API, with its live queue state and fresh download links. */
  present(generation: Generation, leaveOut: readonly Expandable[] = [], now = this.#o.now()): GenerationObject {
    return presentGeneration(generation, this.#o.jobs.live(generation.id), this.#o.signer, now, leaveOut);
  }

  /**
   * `present` for a page of generations (or one), reading the queue once for all of them: in PostgreSQL mode the
   * queue is in the database, and only this way do queue_position and estimated_time come from it.
   */
  async presentAll(
    generations: readonly Generation[],
    leaveOut: readonly Expandable[] = [],
    now = this.#o.now(),
  ): Promise<GenerationObject[]> {
    const live = await this.#o.jobs.liveMany(generations);
    return generations.map((g) => presentGeneration(g, live.get(g.id), this.#o.signer, now, leaveOut));
  }

  /**
   * A completed generation's file of a kind (a key of download_urls) or one of its stems; undefined when there is
   * none (not completed, deleted, no such file, gone from storage).
   */
  async file(accountId: string, id: string, which: DownloadKind | { stem: string }): Promise<StoredFile | undefined> {
    const generation = await this.find(accountId, id);
    const files = generation?.status === 'completed' ? generation.files : null;
    if (!generation || !files) return undefined;
    const key = typeof which === 'string' ? files[which] : files.stems?.[which.stem];
    const info = typeof key === 'string' ? await this.#o.blobs.stat(key) : undefined;
    if (typeof key !== 'string' || !info) return undefined;
    const contentType = typeof which === 'string' ? DOWNLOADS[which].contentType : STEM_CONTENT_TYPE;
    return { generation, size: info.size, contentType, open: (range) => this.#o.blobs.open(key, range) };
  }

  /**
   * Every stem of a completed generation, opened (role -> its bytes), so a missing one is known before an answer
   * starts; undefined when it has none or one is gone. The caller reads or destroys every stream.
   */
  async openStems(
    accountId: string,
    id: string,
  ): Promise<{ generation: Generation; stems: { role: string; stream: Readable }[] } | undefined> {
    const generation = await this.find(accountId, id);
    const stems = generation?.status === 'completed' ? generation.files?.stems : undefined;
    if (!generation || !stems || Object.keys(stems).length === 0) return undefined;
    const opened: { role: string; stream: Readable }[] = [];
    try {
      for (const [role, key] of Object.entries(stems)) opened.push({ role, stream: await this.#o.blobs.open(key) });
    } catch (error) {
      for (const { stream } of opened) stream.destroy();
      if (error instanceof BlobNotFoundError) return undefined;
      throw error;
    }
    return { generation, stems: opened };
  }
}
