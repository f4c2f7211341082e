/**
 * A first download of the MP3 streams it as it is encoded (issue 27): through the real server and encoder, the
 * streamed bytes are the stored file but for its info frame's tag and decode (ffmpeg) to the same samples; a
 * download that goes away midway leaves the encode to finish and store the file for the others; byte ranges come
 * from the stored file. With a fake encoder: a failure before the first byte is the usual error answer, one midway
 * cuts the download short, and neither lets the encoder's message out.
 */
import test from 'ava';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mp3Frames } from '../engine/encode/mp3-info.ts';
import type { Json } from './helpers/json.ts';
import { decode } from './helpers/analysis/decode.ts';
import { errorOf, startApp, type TestApp } from './helpers/app.ts';
import { eventually, type ServerProcess } from './helpers/process.ts';
import { sharedRender, type SharedRender } from './helpers/shared-render.ts';

const SECONDS = 30;
const render = sharedRender({ prompt: 'a calm piano piece', duration: SECONDS, seed: 5 });

const accountOf = (rendered: SharedRender): string =>
  /\/files\/([^/]+)\//.exec(rendered.generation.download_urls.mp3)?.[1] ?? '';
const storedPath = (rendered: SharedRender): string =>
  join(rendered.dataDir, 'audio', accountOf(rendered), `${rendered.generation.id}.mp3`);

/** How many times the server has logged storing a first download's MP3. */
const encodes = (server: ServerProcess): number =>
  server
    .stdout()
    .split('\n')
    .filter((line) => line.includes('file encoded on first download') && line.includes('"format":"mp3"')).length;

async function wholeBody(res: Response): Promise<Buffer> {
  return Buffer.from(await res.arrayBuffer());
}

/** The streamed file against the stored one: the same bytes after the info frame, the same samples decoded. */
async function sameAudio(t: import('ava').ExecutionContext, rendered: SharedRender, streamed: Buffer, stored: Buffer) {
  const head = mp3Frames(stored)[0]!.length;
  t.is(streamed.length, stored.length);
  t.true(streamed.subarray(head).equals(stored.subarray(head)), 'every audio frame as stored');
  const streamedPath = join(rendered.dir, `streamed-${streamed.length}.mp3`);
  const storedCopy = join(rendered.dir, `stored-${stored.length}.mp3`);
  await writeFile(streamedPath, streamed);
  await writeFile(storedCopy, stored);
  const [fromStream, fromStore] = await Promise.all([decode(streamedPath), decode(storedCopy)]);
  t.is(fromStore.frames, SECONDS * 44_100);
  t.is(fromStream.frames, SECONDS * 44_100);
  t.is(fromStream.sha256, fromStore.sha256);
}

test.serial('the first download streams the MP3 as it is encoded; the stored file follows, with ranges', async (t) => {
  const rendered = await render();
  const url = rendered.generation.download_urls.mp3;
  const first = await fetch(url);
  t.is(first.status, 200);
  t.is(first.headers.get('content-type'), 'audio/mpeg');
  t.is(first.headers.get('content-length'), null, 'no length yet: chunked');
  t.is(first.headers.get('accept-ranges'), null);
  const streamed = await wholeBody(first);
  await eventually(() => (encodes(rendered.server) === 1 ? true : undefined), 60_000, 'the MP3 stored');

  const again = await fetch(url);
  t.is(again.headers.get('accept-ranges'), 'bytes');
  const stored = await wholeBody(again);
  t.is(Number(again.headers.get('content-length')), stored.length);
  await sameAudio(t, rendered, streamed, stored);
  const part = await fetch(url, { headers: { Range: 'bytes=1000-1999' } });
  t.is(part.status, 206);
  t.true((await wholeBody(part)).equals(stored.subarray(1000, 2000)));
  t.is(encodes(rendered.server), 1);
});

test.serial(
  'a download that goes away midway does not stop the encode: the file is stored whole for the next',
  async (t) => {
    const rendered = await render();
    const url = rendered.generation.download_urls.mp3;
    await rm(storedPath(rendered)); // as if never fetched: the next download encodes again
    const before = encodes(rendered.server);

    const leaving = new AbortController();
    const first = await fetch(url, { signal: leaving.signal });
    t.is(first.headers.get('content-length'), null);
    const reader = first.body!.getReader();
    t.true(((await reader.read()).value?.length ?? 0) > 0);
    // A second download while (or after) the first is encoding shares its encode.
    const second = fetch(url).then(wholeBody);
    leaving.abort();
    await reader.cancel().catch(() => {});

    await eventually(() => (encodes(rendered.server) === before + 1 ? true : undefined), 60_000, 'the MP3 stored');
    const stored = await wholeBody(await fetch(url));
    await sameAudio(t, rendered, await second, stored);
    t.is(encodes(rendered.server), before + 1, 'one encode for both downloads');
  },
);

/** A completed track of the fake queue on an app whose encoder is `encode`, and its MP3 link. */
async function trackWith(
  t: import('ava').ExecutionContext,
  encode: TestEncoder,
): Promise<{ app: TestApp; url: string }> {
  const app = await startApp(t, { encoder: { encode } });
  const { key } = await app.account('developer');
  const created = (await (await app.call(key, '/v1/generate', { json: { prompt: 'lofi' } })).json()) as Json;
  await app.jobs.complete(created.id, 'Night', {}, true);
  const generation = (await (await app.call(key, `/v1/generation/${created.id}`)).json()) as Json;
  return { app, url: generation.download_urls.mp3 };
}

type TestEncoder = (
  wav: Uint8Array,
  format: string,
  options: unknown,
  onPiece?: (piece: Uint8Array) => void,
) => Promise<Uint8Array>;

const SECRET = 'lame_encode_buffer at /opt/tunesmith/engine/encode/mp3.ts:57';

test('an encoder that fails before its first byte is the usual error answer, its message kept in', async (t) => {
  const { url } = await trackWith(t, async () => {
    throw new Error(SECRET);
  });
  const res = await fetch(url);
  t.is(res.status, 500);
  const text = await res.text();
  t.false(text.includes('lame_encode'), text);
  t.like(await errorOf(new Response(text)), { code: 'internal_error' });
});

test('an encoder that fails midway cuts the download short, says nothing of why, and the next download tries again', async (t) => {
  let calls = 0;
  let failNow!: () => void;
  const failing = new Promise<void>((resolve) => (failNow = resolve));
  const { app, url } = await trackWith(t, async (_wav, _format, _options, onPiece) => {
    calls++;
    if (calls > 1) return new Uint8Array([1, 2, 3, 4]);
    onPiece?.(Buffer.from('the first frames'));
    await failing;
    throw new Error(SECRET);
  });
  const res = await fetch(url);
  t.is(res.status, 200);
  const reader = res.body!.getReader();
  t.is(Buffer.from((await reader.read()).value ?? []).toString(), 'the first frames');
  failNow();
  const error = await t.throwsAsync(async () => {
    for (;;) if ((await reader.read()).done) return;
  });
  t.false(String(error?.cause ?? error).includes('lame_encode'));
  t.false(await app.store.blobs.stat(keyOf(url)).then(Boolean), 'nothing stored');
  const again = await fetch(url);
  t.is(again.status, 200);
  t.deepEqual([...new Uint8Array(await again.arrayBuffer())], [1, 2, 3, 4]);
  t.is(calls, 2);
  // The download ends with the encode; the file is stored just after.
  const stored = await eventually(() => app.store.blobs.stat(keyOf(url)), 10_000, 'the file stored');
  t.is(stored.size, 4);
});

test("a player's first ask, `Range: bytes=0-`, streams the MP3 being encoded (200, no length); once stored, it is a range again", async (t) => {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const { app, url } = await trackWith(t, async (_wav, _format, _options, onPiece) => {
    onPiece?.(Buffer.from('the first frames'));
    await released;
    onPiece?.(Buffer.from(' and the rest'));
    return Buffer.from('the first frames and the rest');
  });
  const res = await fetch(url, { headers: { Range: 'bytes=0-' } });
  t.is(res.status, 200);
  t.is(res.headers.get('content-length'), null);
  t.is(res.headers.get('accept-ranges'), null);
  const reader = res.body!.getReader();
  t.is(Buffer.from((await reader.read()).value ?? []).toString(), 'the first frames', 'before the encode ends');
  release();
  let rest = '';
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += Buffer.from(chunk.value);
  t.is(rest, ' and the rest');
  await eventually(() => app.store.blobs.stat(keyOf(url)), 10_000, 'the file stored');
  const stored = await fetch(url, { headers: { Range: 'bytes=0-' } });
  t.is(stored.status, 206);
  t.is(stored.headers.get('content-range'), 'bytes 0-28/29');
  t.is(await stored.text(), 'the first frames and the rest');
});

/** The blob key of a download link (/files/<account>/<id>.mp3 -> audio/<account>/<id>.mp3). */
const keyOf = (url: string): string => new URL(url).pathname.replace(/^\/files\//, 'audio/');
