/**
 * Opens the webhooks module over a data dir: the outbox file, the service and the delivery worker.
 * server.ts opens it before the job queue (whose restart recovery may already record events) and
 * starts sending once the download links can be signed (their public URL is known after listening).
 */
import type { DownloadSigner } from '../http/signing.ts';
import { presentGeneration } from '../routes/generations/present.ts';
import type { Store } from '../store/types.ts';
import { DeliveryWorker } from './delivery-worker.ts';
import { Outbox, WEBHOOK_FILE } from './outbox.ts';
import { RETRY_JITTER, RETRY_SCHEDULE_MS } from './schedule.ts';
import { WebhookService } from './service.ts';
import type { Resolver } from './url-safety.ts';

export { WebhookService, type DeliveryView, type NewEndpoint, type SecretView } from './service.ts';
export { EVENT_TYPES, DEFAULT_EVENTS, type EventType, type WebhookEndpoint, type WebhookDelivery, type DeliveryState } from './types.ts';

export interface WebhooksOptions {
  store: Store;
  /** TUNESMITH_WEBHOOK_ALLOW_PRIVATE: send to loopback and private addresses too (a laptop, the tests). */
  allowPrivate: boolean;
  log?: (line: string) => void;
  /** Test seams, with production defaults. */
  schedule?: readonly number[];
  jitter?: number;
  timeoutMs?: number;
  /** An endpoint failing continuously this long is disabled. @default 5 days */
  disableAfterMs?: number;
  concurrency?: number;
  perReceiver?: number;
  now?: () => Date;
  random?: () => number;
  resolve?: Resolver;
}

export interface Webhooks {
  service: WebhookService;
  /** The job queue's transition listener (see WebhookService.record). */
  record: WebhookService['record'];
  /** Starts delivering; the events' data carries download links signed by `signer` (the app's own). */
  start(signer: DownloadSigner): void;
  /** Stops delivering and flushes the outbox file. */
  close(): Promise<void>;
}

export async function openWebhooks(options: WebhooksOptions): Promise<Webhooks> {
  const now = options.now ?? (() => new Date());
  const outbox = await Outbox.open(options.store.resolveFile(WEBHOOK_FILE), options.store.openForWrite);
  let service: WebhookService | undefined;
  const worker = new DeliveryWorker({
    outbox,
    store: options.store,
    secretsOf: (accountId) => service!.signingSecrets(accountId),
    allowPrivate: options.allowPrivate,
    resolve: options.resolve,
    schedule: options.schedule ?? RETRY_SCHEDULE_MS,
    jitter: options.jitter ?? RETRY_JITTER,
    timeoutMs: options.timeoutMs ?? 10_000,
    disableAfterMs: options.disableAfterMs ?? 5 * 24 * 3600 * 1000,
    concurrency: options.concurrency ?? 16,
    perReceiver: options.perReceiver ?? 4,
    now,
    random: options.random ?? Math.random,
    log: options.log ?? (() => undefined),
  });
  service = new WebhookService({ outbox, worker, store: options.store, allowPrivate: options.allowPrivate, resolve: options.resolve, now });
  return {
    service,
    record: service.record,
    start(signer) {
      worker.start((generation) => presentGeneration(generation, undefined, signer, now()));
    },
    async close() {
      await worker.close();
      await outbox.idle();
    },
  };
}
