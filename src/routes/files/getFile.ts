import { open, type FileHandle } from 'node:fs/promises';
import { DOWNLOADS, FILE_EXTENSIONS, kindOfExtension } from '../../downloads.ts';
import { attachment } from '../../http/content-disposition.ts';
import { ResourceNotFoundError } from '../../http/errors.ts';
import { sendFile } from '../../http/send-file.ts';
import type { FileExtension } from '../../http/signing.ts';
import type { RouteHandler, Services } from '../../http/types.ts';

const ID = /^[A-Za-z0-9_-]{1,64}$/;
const FILE_NAME = new RegExp(`^([A-Za-z0-9_-]{1,64})\\.(${FILE_EXTENSIONS.join('|')})$`);

function notFound(): ResourceNotFoundError {
  return new ResourceNotFoundError('file_not_found', 'No file at this address. Fetch the generation again for fresh download_urls.');
}

/**
 * GET /files/:account_id/:file (no API key: the signature is the credential, so links play in an <audio> tag).
 * The path on disk comes from the generation record, never from the URL.
 */
export function getFileHandler(services: Services): RouteHandler {
  return async function getFile(ctx) {
    const accountId = ctx.params['account_id'] ?? '';
    const name = FILE_NAME.exec(ctx.params['file'] ?? '');
    if (!ID.test(accountId) || !name) throw notFound();
    const [, generationId = '', ext = 'wav'] = name as unknown as [string, string, FileExtension];
    const query = new URLSearchParams(ctx.querystring);
    const expires = query.get('expires') ?? '';
    const now = services.now();
    services.signer.verify({ accountId, generationId, ext, expires, sig: query.get('sig') ?? '' }, now);

    const generation = services.store.getGeneration(accountId, generationId);
    const kind = kindOfExtension(ext)!;
    const relative = generation?.status === 'completed' ? generation.files?.[kind] : undefined;
    if (!generation || relative === undefined) throw notFound();
    await sendFile(ctx, await openRecorded(services, relative), {
      contentType: DOWNLOADS[kind].contentType,
      contentDisposition: attachment(generation.title, generation.id, ext),
      maxAgeSeconds: Number(expires) - now.getTime() / 1000,
    });
  };
}

/** A missing file, or a recorded path the store refuses (outside the data dir), is simply not there. */
async function openRecorded(services: Services, relative: string): Promise<FileHandle> {
  try {
    return await open(services.store.resolveFile(relative), 'r');
  } catch {
    throw notFound();
  }
}
