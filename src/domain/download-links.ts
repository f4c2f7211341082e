/**
 * Signed, expiring download links: /files/{account_id}/{generation_id}.{ext}?expires=…&sig=… (ext: see generations/files.ts,
 * or stem-{role}.wav and stems.zip for the stems) where sig = base64url(HMAC-SHA256(secret, "{account_id}/{generation_id}.{ext}.{expires}")).
 * The account id is in the path because a generation is looked up within its account.
 */
import { createHmac } from 'node:crypto';
import { DOWNLOADS, STEMS_ZIP, stemFile, type DownloadKind } from './generations/files.ts';
import { safeEqual } from '../ids.ts';
import { DownloadLinkError } from './errors.ts';

export type { FileExtension } from './generations/files.ts';

export interface DownloadLinks {
  /** One link per file the generation has: wav and midi always, the other formats when they were made. */
  download_urls: Partial<Record<DownloadKind, string>> & { wav: string; midi: string; stems?: string };
  download_expires_at: string;
  /** Only when the generation has stems: one link per role that plays (download_urls.stems is their zip). */
  stem_urls?: Record<string, string>;
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

  /** `kinds`: the files the generation has (wav and midi are always linked); `stemRoles`: its stems, if any. */
  links(
    accountId: string,
    generationId: string,
    now: Date,
    kinds: readonly DownloadKind[] = ['wav', 'midi'],
    stemRoles: readonly string[] = [],
  ): DownloadLinks {
    // Rounded up to the minute so repeated polls get the same URLs (and a player's cache keeps working).
    const expires = Math.ceil((now.getTime() / 1000 + this.#ttlSeconds) / 60) * 60;
    const cacheKey = `${accountId}/${generationId}/${expires}/${kinds.join(',')}/${stemRoles.join(',')}`;
    let links = this.#cache.get(cacheKey);
    if (!links) {
      const url = (ext: string) =>
        `${this.#publicUrl}/files/${accountId}/${generationId}.${ext}?expires=${expires}&sig=${this.#sign(accountId, generationId, ext, expires)}`;
      const urls: DownloadLinks['download_urls'] = { wav: url('wav'), midi: url('midi') };
      for (const kind of kinds) urls[kind] = url(DOWNLOADS[kind].ext);
      links = { download_urls: urls, download_expires_at: new Date(expires * 1000).toISOString() };
      if (stemRoles.length > 0) {
        urls.stems = url(STEMS_ZIP);
        links.stem_urls = Object.fromEntries(stemRoles.map((role) => [role, url(stemFile(role))]));
      }
      if (this.#cache.size >= CACHE_LIMIT) this.#cache.clear();
      this.#cache.set(cacheKey, links);
    }
    // Copies, so a caller changing its object cannot change the next caller's.
    return {
      download_urls: { ...links.download_urls },
      download_expires_at: links.download_expires_at,
      ...(links.stem_urls ? { stem_urls: { ...links.stem_urls } } : {}),
    };
  }

  /** Throws DownloadLinkError unless the signature matches and the link has not expired. */
  /** `ext`: what follows the generation id in the file name (a format's extension, a stem's `stem-{role}.wav`, `stems.zip`). */
  verify(
    link: { accountId: string; generationId: string; ext: string; expires: string; sig: string },
    now: Date,
  ): void {
    if (!/^\d{1,12}$/.test(link.expires)) throw new DownloadLinkError('invalid_signature');
    const expires = Number(link.expires);
    if (!safeEqual(link.sig, this.#sign(link.accountId, link.generationId, link.ext, expires)))
      throw new DownloadLinkError('invalid_signature');
    // Checked after the signature, so an expiry cannot be probed on a forged link.
    if (expires * 1000 <= now.getTime()) throw new DownloadLinkError('link_expired');
  }

  #sign(accountId: string, generationId: string, ext: string, expires: number): string {
    return createHmac('sha256', this.#secret)
      .update(`${accountId}/${generationId}.${ext}.${expires}`)
      .digest('base64url');
  }
}
