/**
 * Signed, expiring download links: /files/{account_id}/{generation_id}.{wav|mid}?expires=…&sig=…
 * where sig = base64url(HMAC-SHA256(secret, "{account_id}/{generation_id}.{ext}.{expires}")).
 * The account id is in the path because a generation is looked up within its account.
 */
import { createHmac } from 'node:crypto';
import { safeEqual } from '../ids.ts';
import { DownloadLinkError } from './errors.ts';

export type FileExtension = 'wav' | 'mid';

export interface DownloadLinks {
  download_urls: { wav: string; midi: string };
  download_expires_at: string;
}

/** Links are the same for a whole minute (expiry is rounded), so polls reuse them instead of re-signing. */
const CACHE_LIMIT = 10_000;

export class DownloadSigner {
  readonly #secret: string;
  readonly #publicUrl: string;
  readonly #ttlSeconds: number;
  readonly #cache = new Map<string, DownloadLinks>();

  constructor(options: { secret: string; publicUrl: string; ttlSeconds: number }) {
    this.#secret = options.secret;
    this.#publicUrl = options.publicUrl.replace(/\/+$/, '');
    this.#ttlSeconds = options.ttlSeconds;
  }

  links(accountId: string, generationId: string, now: Date): DownloadLinks {
    // Rounded up to the minute so repeated polls get the same URLs (and a player's cache keeps working).
    const expires = Math.ceil((now.getTime() / 1000 + this.#ttlSeconds) / 60) * 60;
    const cacheKey = `${accountId}/${generationId}/${expires}`;
    let links = this.#cache.get(cacheKey);
    if (!links) {
      const url = (ext: FileExtension) =>
        `${this.#publicUrl}/files/${accountId}/${generationId}.${ext}?expires=${expires}&sig=${this.#sign(accountId, generationId, ext, expires)}`;
      links = { download_urls: { wav: url('wav'), midi: url('mid') }, download_expires_at: new Date(expires * 1000).toISOString() };
      if (this.#cache.size >= CACHE_LIMIT) this.#cache.clear();
      this.#cache.set(cacheKey, links);
    }
    // Copies, so a caller changing its object cannot change the next caller's.
    return { download_urls: { ...links.download_urls }, download_expires_at: links.download_expires_at };
  }

  /** Throws DownloadLinkError unless the signature matches and the link has not expired. */
  verify(link: { accountId: string; generationId: string; ext: FileExtension; expires: string; sig: string }, now: Date): void {
    if (!/^\d{1,12}$/.test(link.expires)) throw new DownloadLinkError('invalid_signature');
    const expires = Number(link.expires);
    if (!safeEqual(link.sig, this.#sign(link.accountId, link.generationId, link.ext, expires))) throw new DownloadLinkError('invalid_signature');
    // Checked after the signature, so an expiry cannot be probed on a forged link.
    if (expires * 1000 <= now.getTime()) throw new DownloadLinkError('link_expired');
  }

  #sign(accountId: string, generationId: string, ext: FileExtension, expires: number): string {
    return createHmac('sha256', this.#secret).update(`${accountId}/${generationId}.${ext}.${expires}`).digest('base64url');
  }
}
