/**
 * webhooks.json in the data dir: endpoints, secrets and the outbox (events and their deliveries).
 * Held in memory and written whole, crash-safe (temp file, fsync, rename) and coalesced like accounts.json;
 * a caller that awaits save() knows its change is on disk.
 */
import { readFile } from 'node:fs/promises';
import { CoalescingWriter } from '../store/atomic-file.ts';
import type { WebhookData } from './types.ts';

export const WEBHOOK_FILE = 'webhooks.json';

export class WebhookFile {
  readonly data: WebhookData;
  readonly #path: string;
  readonly #writer = new CoalescingWriter();

  private constructor(path: string, data: WebhookData) {
    this.#path = path;
    this.data = data;
  }

  static async open(path: string): Promise<WebhookFile> {
    let data: WebhookData = { endpoints: [], secrets: [], events: [], deliveries: [] };
    try {
      data = { ...data, ...(JSON.parse(await readFile(path, 'utf8')) as Partial<WebhookData>) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    return new WebhookFile(path, data);
  }

  save(): Promise<void> {
    return this.#writer.write(this.#path, () => JSON.stringify(this.data), 0o600);
  }

  idle(): Promise<void> {
    return this.#writer.idle();
  }
}
