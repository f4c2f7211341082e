/**
 * The webhooks module over the repository: the service (endpoints, secrets, the delivery log) and the
 * delivery worker. Events are recorded by the generation lifecycle, in its transitions' transactions; the
 * worker is woken after each (`wake`) and starts sending once the download links can be signed (their public
 * URL is known after listening).
 */
import type { DownloadSigner } from '../download-links.ts';
import { presentGeneration } from '../generations/present.ts';
import type { Repository } from '../../store/repository.ts';
import { DeliveryWorker } from './delivery-worker.ts';
import { RETRY_JITTER, RETRY_SCHEDULE_MS } from './schedule.ts';
import { WebhookService } from './service.ts';
import type { Resolver } from './url-safety.ts';

export { WebhookService, type DeliveryView, type NewEndpoint, type SecretView } from './service.ts';
export {
  EVENT_TYPES,
  DEFAULT_EVENTS,
  type EventType,
  type WebhookEndpoint,
  type WebhookDelivery,
  type DeliveryState,
} from './types.ts';

export interface WebhooksOptions {
  repository: Repository;
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
  /** Look for due deliveries this often too: where other processes record events (PostgreSQL mode). */
  pollMs?: number;
}

export interface Webhooks {
  service: WebhookService;
  /** Looks for deliveries to make now: the lifecycle calls it after a transition caused an event. */
  wake(): void;
  /** Starts delivering; the events' data carries download links signed by `signer` (the app's own). */
  start(signer: DownloadSigner): void;
  /** Stops delivering (attempts in flight are made again at the next start). */
  close(): Promise<void>;
}

export function openWebhooks(options: WebhooksOptions): Webhooks {
  const now = options.now ?? (() => new Date());
  let service: WebhookService | undefined;
  const worker = new DeliveryWorker({
    repository: options.repository,
    secretsOf: (accountId) => {
      if (!service) throw new Error('a webhook was signed before the webhook service was made');
      return service.signingSecrets(accountId);
    },
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
    pollMs: options.pollMs,
  });
  service = new WebhookService({
    worker,
    repository: options.repository,
    allowPrivate: options.allowPrivate,
    resolve: options.resolve,
    now,
  });
  return {
    service,
    wake: () => worker.wake(),
    start(signer) {
      worker.start((generation) => presentGeneration(generation, undefined, signer, now()));
    },
    close: () => worker.close(),
  };
}
