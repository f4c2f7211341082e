/**
 * Generations as the API, the dashboard and the download links use them: creating one (plan rules, quota and
 * idempotency, then the render queue), finding and listing an account's own, cancelling, deleting with its
 * files, presenting, and opening a stored file. Handlers parse, call this, and respond.
 */
import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { FileEncoder, GenerationRequest, LaterFormat, OutputOptions } from '../../../engine/index.ts';
import {
  GenerationStateError,
  NothingToReplayError,
  RateLimitedError,
  ServiceUnavailableError,
  StorageBudgetError,
} from '../errors.ts';
import { newBatchId } from '../../ids.ts';
import type { DownloadSigner } from '../download-links.ts';
import type { JobQueue } from '../../jobs/types.ts';
import { limitsFor } from '../plans.ts';
import type { BlobInfo, BlobRange, BlobStore } from '../../store/blob-store.ts';
import type { Logger } from '../../log.ts';
import type { Repository, ListOptions } from '../../store/repository.ts';
import { BlobNotFoundError } from '../../store/errors.ts';
import { storedFiles, type Account, type Generation, type NewGeneration } from '../model.ts';
import { checkPlan, type PlanAsk } from '../plan-gate.ts';
import { assertDerivable, derivedInput, type Derivation } from './derive.ts';
import { DOWNLOADS, STEM_CONTENT_TYPE, isLaterFormat, type DownloadKind } from './files.ts';
import { GrowingFile } from './growing-file.ts';
import { formatBytes, storageBytesOf } from './storage-budget.ts';
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

/** A file being made for its first download (the MP3), to stream as it is made: no size yet, no ranges. */
export interface GrowingStoredFile {
  generation: Generation;
  contentType: string;
  growing: true;
  /** The whole file from its first byte, following the encode. */
  open(): Readable;
}

/** A format's first encode under way: done once stored; the MP3's bytes meanwhile, as they come. */
interface Encode {
  stored: Promise<void>;
  growing: GrowingFile | undefined;
}

export interface GenerationsOptions {
  repository: Repository;
  blobs: BlobStore;
  jobs: JobQueue;
  /** The engine's checks before a task is accepted: not silent, lyrics that fit (throws its own errors). */
  checkRequest(request: GenerationRequest): void;
  /**
   * TUNESMITH_MAX_TASKS_PER_ACCOUNT: tasks an account may have waiting or rendering at once; more is a 429 until
   * one finishes. Absent: no bound (tests whose fake queue never finishes a task).
   */
  maxUnfinishedPerAccount?: number | undefined;
  /**
   * TUNESMITH_DISK_BUDGET_GB, in bytes: the storage an account's tracks may take (storage-budget.ts); a task that
   * would take it past is a 402 storage_budget_exceeded until tracks are deleted. Absent: no budget.
   */
  storageBudgetPerAccount?: number | undefined;
  /** Checks a callback_url by the webhooks' rules; absent where nothing would send webhooks. */
  checkCallbackUrl?: ((url: string, param: string) => Promise<void>) | undefined;
  signer: DownloadSigner;
  now: () => Date;
  /** Makes MP3, Opus and FLAC from the stored WAV on first download; absent, a format not stored is not found. */
  encoder?: Pick<FileEncoder, 'encode'> | undefined;
  /** Where a file made on first download is reported. */
  logger?: Logger | undefined;
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
  /** Encodes under way, by blob key: a second download of the same file waits for the first one's encode. */
  readonly #encoding = new Map<string, Encode>();

  readonly #admitting = new Map<string, Promise<void>>();

  constructor(options: GenerationsOptions) {
    this.#o = options;
  }

  /** Checks the plan's rules, reserves a unit of quota and saves the task (one atomic step), then queues it. */
  async create(
    account: Account,
    request: GenerationInput,
    options: CreateOptions = {},
  ): Promise<{ generation: Generation; replayed: boolean }> {
    return this.#create(account, request, options, askOf(request));
  }

  /** `ask`: what the plan judges, or undefined when the caller judged it already (derive, before its source). */
  async #create(
    account: Account,
    request: GenerationInput,
    options: CreateOptions,
    ask: PlanAsk | undefined,
  ): Promise<{ generation: Generation; replayed: boolean }> {
    await this.#check(account, request, ask);
    return this.#admit(account, [request], options, async (replayOnly) => {
      const result = await this.#o.repository.createGeneration(
        { account_id: account.id, ...request, request_id: options.requestId ?? null },
        {
          monthlyQuota: limitsFor(account).monthly,
          idempotency: options.idempotency,
          replayOnly,
          now: this.#o.now(),
          rank: limitsFor(account).priority,
        },
      );
      if (!result.replayed) this.#o.jobs.enqueue(result.generation, limitsFor(account).priority);
      return result;
    });
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
    const result = await this.#admit(account, requests, options, (replayOnly) =>
      this.#o.repository.createGenerations(
        requests.map((request, index) => ({
          account_id: account.id,
          ...request,
          request_id: options.requestId ?? null,
          batch: { id, index, size: requests.length },
        })),
        {
          monthlyQuota: limitsFor(account).monthly,
          idempotency: options.idempotency,
          replayOnly,
          now: this.#o.now(),
          rank: limitsFor(account).priority,
        },
      ),
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
    // The source's quality is inherited too (its stems are not: derivedInput makes none): the plan judged the call
    // itself, above, and only that.
    return this.#create(account, inherited, options, undefined);
  }

  /**
   * Runs `make` (which saves the tasks of `requests`) only while the account has room under its bound of
   * unfinished tasks (else a 429 with when to retry) and its storage budget (else a 402). A retry of a request
   * already admitted is answered as the first time instead. One account's admissions run one after another in
   * this process, so a burst of parallel requests cannot all count the same room.
   */
  async #admit<T>(
    account: Account,
    requests: readonly GenerationInput[],
    options: CreateOptions,
    make: (replayOnly: boolean) => Promise<T>,
  ): Promise<T> {
    if (this.#o.maxUnfinishedPerAccount === undefined && this.#o.storageBudgetPerAccount === undefined)
      return make(false);
    const previous = this.#admitting.get(account.id) ?? Promise.resolve();
    const admitted = previous.then(async () => {
      const refusal =
        (await this.#overBound(account.id, requests.length)) ?? (await this.#overBudget(account.id, requests));
      if (!refusal) return make(false);
      // The tasks a retried request made are among those counted: it gets its first answer, not a refusal.
      if (options.idempotency) {
        try {
          return await make(true);
        } catch (error) {
          if (!(error instanceof NothingToReplayError)) throw error;
        }
      }
      throw refusal;
    });
    const settled = admitted.then(
      () => undefined,
      () => undefined,
    );
    this.#admitting.set(account.id, settled);
    void settled.then(() => {
      if (this.#admitting.get(account.id) === settled) this.#admitting.delete(account.id);
    });
    return admitted;
  }

  /** The 429 for `count` more tasks past the account's bound of unfinished ones, or null while there is room. */
  async #overBound(accountId: string, count: number): Promise<RateLimitedError | null> {
    const max = this.#o.maxUnfinishedPerAccount;
    if (max === undefined) return null;
    const unfinished = await this.#unfinished(accountId);
    if (unfinished.length + count <= max) return null;
    const retryAfter = await this.#firstFinishIn(unfinished);
    return new RateLimitedError(
      retryAfter,
      'too_many_tasks',
      `This account has ${unfinished.length} ${unfinished.length === 1 ? 'task' : 'tasks'} waiting or rendering; at most ${max} at once, so ${count === 1 ? 'one more' : `${count} more`} cannot be queued now. Retry in ${retryAfter} s, when one has finished.`,
    );
  }

  /** The 402 for tasks that would take the account past its storage budget, or null while they fit. */
  async #overBudget(accountId: string, requests: readonly GenerationInput[]): Promise<StorageBudgetError | null> {
    const budget = this.#o.storageBudgetPerAccount;
    if (budget === undefined) return null;
    const needed = requests.reduce((sum, request) => sum + storageBytesOf(request), 0);
    // Every track the account keeps, finished or not; a failed one keeps no files.
    const used = await this.#o.repository.storageUsed(accountId);
    if (used + needed <= budget) return null;
    const tracks = requests.length === 1 ? 'this track needs' : `these ${requests.length} tracks need`;
    return new StorageBudgetError(
      budget,
      used,
      needed,
      `This account's tracks take ${formatBytes(used)} of its ${formatBytes(budget)} storage budget and ${tracks} up to ${formatBytes(needed)} more. Delete tracks you no longer need (DELETE /v1/generations/{id}) to make room.`,
    );
  }

  async #unfinished(accountId: string): Promise<Generation[]> {
    const page = { limit: 1000, offset: 0 };
    const [pending, processing] = await Promise.all([
      this.#o.repository.listGenerations(accountId, { ...page, status: 'pending' }),
      this.#o.repository.listGenerations(accountId, { ...page, status: 'processing' }),
    ]);
    return [...processing.items, ...pending.items];
  }

  /** Whole seconds until the first of these tasks is expected to finish, as their estimated_time says. */
  async #firstFinishIn(tasks: readonly Generation[]): Promise<number> {
    const live = await this.#o.jobs.liveMany(tasks.slice(0, 50));
    const times = [...live.values()].map((state) => state.estimated_time).filter((t) => t > 0);
    return times.length === 0 ? 30 : Math.min(3600, Math.max(1, Math.ceil(Math.min(...times))));
  }

  async #check(account: Account, request: GenerationInput, ask: PlanAsk | undefined): Promise<void> {
    // A track that would be silent, or lyrics that cannot be sung (too many lines), are refused now, before any
    // quota is spent, not a charged silence or a failed task later.
    // A custom style is checked as the render will play it (src/jobs/render-task.ts requestOf).
    const custom = request.custom_style;
    this.#o.checkRequest(custom ? { ...request, style: custom.base, customStyle: custom } : request);
    if (ask) checkPlan(account, ask);
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
   * none (not completed, deleted, no such file, gone from storage). A format not stored yet is made first (once,
   * however many ask meanwhile).
   */
  async file(accountId: string, id: string, which: DownloadKind | { stem: string }): Promise<StoredFile | undefined> {
    const found = await this.#file(accountId, id, which, false);
    return found && 'size' in found ? found : undefined;
  }

  /**
   * `file`, but an MP3 not stored yet is given as it is encoded (GrowingStoredFile) rather than once stored: a
   * download from the first byte starts within the encode's first frames (issue 27). Answers once the first piece
   * is there, so an encode that fails before it is still an error answer.
   */
  fileOrGrowing(
    accountId: string,
    id: string,
    which: DownloadKind | { stem: string },
  ): Promise<StoredFile | GrowingStoredFile | undefined> {
    return this.#file(accountId, id, which, true);
  }

  async #file(
    accountId: string,
    id: string,
    which: DownloadKind | { stem: string },
    growing: boolean,
  ): Promise<StoredFile | GrowingStoredFile | undefined> {
    const generation = await this.find(accountId, id);
    const files = generation?.status === 'completed' ? generation.files : null;
    if (!generation || !files) return undefined;
    const key = typeof which === 'string' ? files[which] : files.stems?.[which.stem];
    if (typeof key !== 'string') return undefined;
    const contentType = typeof which === 'string' ? DOWNLOADS[which].contentType : STEM_CONTENT_TYPE;
    let info = await this.#o.blobs.stat(key);
    if (!info && typeof which === 'string' && isLaterFormat(which) && typeof files.wav === 'string') {
      const encode = this.#encodeOnce(generation, which, key, files.wav);
      const live = growing ? encode.growing : undefined;
      if (live) {
        // The WAV gone between the record's read and its opening: there is nothing to make the file from.
        const started = await live.started().then(
          () => true,
          (error: unknown) => {
            if (error instanceof BlobNotFoundError) return false;
            throw error;
          },
        );
        return started ? { generation, contentType, growing: true, open: () => live.reader() } : undefined;
      }
      await encode.stored.catch((error: unknown) => {
        if (error instanceof BlobNotFoundError) return;
        throw error;
      });
      info = await this.#o.blobs.stat(key);
    }
    if (!info) return undefined;
    return { generation, size: info.size, contentType, open: (range) => this.#o.blobs.open(key, range) };
  }

  /**
   * Stores `format` made from the generation's WAV under `key`, once however many ask at the same time; a later
   * ask finds it stored. The MP3's bytes are kept as they come (`growing`) for the downloads that stream them; a
   * download that goes away stops nothing. A generation deleted meanwhile does not keep the file.
   */
  #encodeOnce(generation: Generation, format: DownloadKind & LaterFormat, key: string, wavKey: string): Encode {
    const encoder = this.#o.encoder;
    if (!encoder) return { stored: Promise.resolve(), growing: undefined };
    const running = this.#encoding.get(key);
    if (running) return running;
    const growing = format === 'mp3' ? new GrowingFile() : undefined;
    const stored = (async () => {
      const started = performance.now();
      const wav = await buffer(await this.#o.blobs.open(wavKey));
      const bitrate = generation.encoding?.bitrate;
      const options = bitrate ? { mp3Bitrate: bitrate as Mp3Bitrate } : {};
      const bytes = await encoder.encode(wav, format, options, growing && ((piece) => growing.append(piece)));
      growing?.end(bytes);
      await this.#o.blobs.put(key, bytes, { contentType: DOWNLOADS[format].contentType });
      if (!(await this.find(generation.account_id, generation.id))) await this.#o.blobs.delete(key);
      this.#o.logger?.info(
        {
          gen_id: generation.id,
          format,
          bytes: bytes.byteLength,
          encode_ms: Math.round(performance.now() - started),
        },
        'file encoded on first download',
      );
    })();
    const encode: Encode = { stored, growing };
    this.#encoding.set(key, encode);
    stored
      .catch((error: unknown) => {
        growing?.fail(error as Error);
        // The downloads streaming it have had their answers: nobody else may be there to report it.
        if (growing && !(error instanceof BlobNotFoundError))
          this.#o.logger?.error({ gen_id: generation.id, format, err: error }, 'file encode on first download failed');
      })
      .finally(() => this.#encoding.delete(key));
    return encode;
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

type Mp3Bitrate = NonNullable<OutputOptions['mp3Bitrate']>;
