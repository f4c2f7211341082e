import { attachment } from '../../http/content-disposition.ts';
import { ResourceNotFoundError } from '../../http/errors.ts';
import { sendFile } from '../../http/send-file.ts';
import type { FileExtension } from '../../http/signing.ts';
import type { RouteHandler, Services } from '../../http/types.ts';
import { formatOfExtension } from '../../generations/files.ts';
import { BlobNotFoundError } from '../../store/errors.ts';

const ID = /^[A-Za-z0-9_-]{1,64}$/;
const FILE_NAME = /^([A-Za-z0-9_-]{1,64})\.(wav|mid)$/;

function notFound(): ResourceNotFoundError {
  return new ResourceNotFoundError('file_not_found', 'No file at this address. Fetch the generation again for fresh download_urls.');
}

/**
 * GET /files/:account_id/:file (no API key: the signature is the credential, so links play in an <audio> tag).
 * Where the file is stored comes from the generation record, never from the URL.
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

    const file = await services.generations.file(accountId, generationId, formatOfExtension(ext) ?? 'wav');
    if (!file) throw notFound();
    await sendFile(ctx, file, {
      contentType: file.contentType,
      contentDisposition: attachment(file.generation.title, file.generation.id, ext),
      maxAgeSeconds: Number(expires) - now.getTime() / 1000,
    }).catch((error: unknown) => {
      // A file gone between its lookup and its opening is simply not there.
      throw error instanceof BlobNotFoundError ? notFound() : error;
    });
  };
}
