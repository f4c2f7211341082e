import { open, type FileHandle } from 'node:fs/promises';
import { DOWNLOADS, FILE_EXTENSIONS, STEMS_ZIP, kindOfExtension } from '../../downloads.ts';
import { attachment, slugify } from '../../http/content-disposition.ts';
import { ResourceNotFoundError } from '../../http/errors.ts';
import { sendFile } from '../../http/send-file.ts';
import type { AppContext, RouteHandler, Services } from '../../http/types.ts';
import { zipStream } from '../../http/zip-stream.ts';

const ID = /^[A-Za-z0-9_-]{1,64}$/;
const FILE_NAME = new RegExp(`^([A-Za-z0-9_-]{1,64})\\.(${FILE_EXTENSIONS.join('|')}|stem-[a-z]{1,16}\\.wav|stems\\.zip)$`);

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
    const [, generationId = '', ext = 'wav'] = name as unknown as [string, string, string];
    const query = new URLSearchParams(ctx.querystring);
    const expires = query.get('expires') ?? '';
    const now = services.now();
    services.signer.verify({ accountId, generationId, ext, expires, sig: query.get('sig') ?? '' }, now);

    const generation = services.store.getGeneration(accountId, generationId);
    const files = generation?.status === 'completed' ? generation.files : null;
    if (!generation || !files) throw notFound();
    const maxAgeSeconds = Number(expires) - now.getTime() / 1000;
    if (ext === STEMS_ZIP) {
      await sendStemsZip(ctx, services, generation.title, generation.id, files.stems ?? {}, maxAgeSeconds);
      return;
    }
    const kind = kindOfExtension(ext);
    const relative = kind ? files[kind] : files.stems?.[ext.slice('stem-'.length, -'.wav'.length)];
    if (typeof relative !== 'string') throw notFound();
    await sendFile(ctx, await openRecorded(services, relative), {
      contentType: kind ? DOWNLOADS[kind].contentType : DOWNLOADS.wav.contentType,
      contentDisposition: attachment(generation.title, generation.id, ext),
      maxAgeSeconds,
    });
  };
}

/** Every stem in one zip (`<title>/drums.wav` …), made as it is sent: no Range, no length known in advance. */
async function sendStemsZip(ctx: AppContext, services: Services, title: string | null, id: string, stems: Record<string, string>, maxAgeSeconds: number): Promise<void> {
  const roles = Object.keys(stems);
  if (roles.length === 0) throw notFound();
  // Every file is opened before the answer starts: a missing one is still a clean 404.
  const handles: FileHandle[] = [];
  try {
    for (const role of roles) handles.push(await openRecorded(services, stems[role]!));
  } catch (error) {
    await Promise.all(handles.map((handle) => handle.close().catch(() => undefined)));
    throw error;
  }
  const folder = (title && slugify(title)) || id;
  ctx.set('Content-Disposition', attachment(title, id, 'stems.zip'));
  ctx.set('Cache-Control', `private, max-age=${Math.max(0, Math.floor(maxAgeSeconds))}`);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.type = 'application/zip';
  ctx.body = zipStream(roles.map((role, index) => ({ name: `${folder}/${role}.wav`, handle: handles[index]! })));
}

/** A missing file, or a recorded path the store refuses (outside the data dir), is simply not there. */
async function openRecorded(services: Services, relative: string): Promise<FileHandle> {
  try {
    return await open(services.store.resolveFile(relative), 'r');
  } catch {
    throw notFound();
  }
}
