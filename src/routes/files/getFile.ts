import { open } from 'node:fs/promises';
import { attachment } from '../../http/content-disposition.ts';
import { RangeNotSatisfiableError, ResourceNotFoundError } from '../../http/errors.ts';
import { parseRange } from '../../http/range.ts';
import type { FileExtension } from '../../http/signing.ts';
import type { RouteHandler, Services } from '../../http/types.ts';

const ID = /^[A-Za-z0-9_-]{1,64}$/;
const FILE_NAME = /^([A-Za-z0-9_-]{1,64})\.(wav|mid)$/;
const CONTENT_TYPES: Record<FileExtension, string> = { wav: 'audio/wav', mid: 'audio/midi' };

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
    const [, generationId = '', extText] = name;
    const ext = extText as FileExtension;
    const query = new URLSearchParams(ctx.querystring);
    const now = services.now();
    services.signer.verify({ accountId, generationId, ext, expires: query.get('expires') ?? '', sig: query.get('sig') ?? '' }, now);

    const generation = services.store.getGeneration(accountId, generationId);
    const relative = generation?.status === 'completed' ? generation.files?.[ext === 'wav' ? 'wav' : 'midi'] : undefined;
    if (!generation || relative === undefined) throw notFound();
    const handle = await open(services.store.resolveFile(relative), 'r').catch(() => {
      throw notFound();
    });
    const { size } = await handle.stat();

    const range = ctx.get('If-Range') === '' ? parseRange(ctx.get('Range'), size) : undefined;
    if (range === 'unsatisfiable') {
      await handle.close();
      throw new RangeNotSatisfiableError(size);
    }
    ctx.set('Accept-Ranges', 'bytes');
    ctx.set('Content-Disposition', attachment(generation.title, generation.id, ext));
    ctx.set('Cache-Control', `private, max-age=${Math.max(0, Number(query.get('expires')) - Math.floor(now.getTime() / 1000))}`);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.type = CONTENT_TYPES[ext];
    const { start, end } = range ?? { start: 0, end: size - 1 };
    if (range) {
      ctx.status = 206;
      ctx.set('Content-Range', `bytes ${start}-${end}/${size}`);
    }
    // Koa destroys a stream body when the response finishes (HEAD included), which closes the handle.
    ctx.body = size === 0 ? '' : handle.createReadStream({ start, end });
    ctx.length = size === 0 ? 0 : end - start + 1;
    if (size === 0) await handle.close();
  };
}
