import { FILE_EXTENSIONS, STEMS_ZIP, kindOfExtension, roleOfStemFile } from '../../domain/generations/files.ts';
import { attachment, slugify } from '../../http/content-disposition.ts';
import { ResourceNotFoundError } from '../../domain/errors.ts';
import { sendFile, sendGrowingFile } from '../../http/send-file.ts';
import type { AppContext, RouteHandler } from '../../http/types.ts';
import type { Services } from '../../services.ts';
import { zipStream } from '../../http/zip-stream.ts';
import { BlobNotFoundError } from '../../store/errors.ts';

const ID = /^[A-Za-z0-9_-]{1,64}$/;
const FILE_NAME = new RegExp(
  `^([A-Za-z0-9_-]{1,64})\\.(${FILE_EXTENSIONS.join('|')}|stem-[a-z]{1,16}\\.wav|stems\\.zip)$`,
);

function notFound(): ResourceNotFoundError {
  return new ResourceNotFoundError(
    'file_not_found',
    'No file at this address. Fetch the generation again for fresh download_urls.',
  );
}

/**
 * GET /files/:account_id/:file (no API key: the signature is the credential, so links play in an <audio> tag).
 * Where the file is stored comes from the generation record, never from the URL.
 */
export function getFileHandler(services: Services): RouteHandler {
  return async function getFile(ctx) {
    const accountId = ctx.params.account_id ?? '';
    const name = FILE_NAME.exec(ctx.params.file ?? '');
    if (!ID.test(accountId) || !name) throw notFound();
    const [, generationId = '', ext = 'wav'] = name as unknown as [string, string, string];
    const query = new URLSearchParams(ctx.querystring);
    const expires = query.get('expires') ?? '';
    const now = services.now();
    services.signer.verify({ accountId, generationId, ext, expires, sig: query.get('sig') ?? '' }, now);

    const maxAgeSeconds = Number(expires) - now.getTime() / 1000;
    if (ext === STEMS_ZIP) {
      await sendStemsZip(ctx, services, accountId, generationId, maxAgeSeconds);
      return;
    }
    const kind = kindOfExtension(ext);
    const role = roleOfStemFile(ext);
    const which = kind ?? (role === undefined ? undefined : { stem: role });
    // A whole-file GET may stream an MP3 while it is first encoded; so may `Range: bytes=0-` (what a browser's player
    // asks first), answered 200 with the whole stream as RFC 9110 allows. Any other range (or HEAD) waits for the
    // stored file.
    const streamable = ctx.method === 'GET' && /^(?:bytes=0-)?$/.test(ctx.get('Range').trim());
    const lookup = streamable ? services.generations.fileOrGrowing : services.generations.file;
    const file =
      which === undefined
        ? undefined
        : await waiting(ctx, lookup.call(services.generations, accountId, generationId, which));
    if (!file) throw notFound();
    const headers = {
      contentType: file.contentType,
      contentDisposition: attachment(file.generation.title, file.generation.id, ext),
      maxAgeSeconds,
    };
    if ('growing' in file) {
      sendGrowingFile(ctx, file.open(), headers);
      return;
    }
    await sendFile(ctx, file, headers).catch((error: unknown) => {
      // A file gone between its lookup and its opening is simply not there.
      throw error instanceof BlobNotFoundError ? notFound() : error;
    });
  };
}

/**
 * A format's first download waits for its encode (src/domain/generations/generations.ts), seconds on a busy machine: the
 * waiting is ours, not a stalled client, so the connection's idle limit (createHttpServer) is lifted meanwhile.
 */
async function waiting<T>(ctx: AppContext, work: Promise<T>): Promise<T> {
  const socket = ctx.req.socket;
  const idleMs = socket.timeout ?? 0;
  socket.setTimeout(0);
  try {
    return await work;
  } finally {
    socket.setTimeout(idleMs);
  }
}

/** Every stem in one zip (`<title>/drums.wav` …), made as it is sent: no Range, no length known in advance. */
async function sendStemsZip(
  ctx: AppContext,
  services: Services,
  accountId: string,
  generationId: string,
  maxAgeSeconds: number,
): Promise<void> {
  // Every stem is opened before the answer starts: a missing one is still a clean 404.
  const opened = await services.generations.openStems(accountId, generationId);
  if (!opened) throw notFound();
  const { generation, stems } = opened;
  const folder = (generation.title && slugify(generation.title)) || generation.id;
  ctx.set('Content-Disposition', attachment(generation.title, generation.id, 'stems.zip'));
  ctx.set('Cache-Control', `private, max-age=${Math.max(0, Math.floor(maxAgeSeconds))}`);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.type = 'application/zip';
  ctx.body = zipStream(stems.map(({ role, stream }) => ({ name: `${folder}/${role}.wav`, stream })));
}
