/**
 * MP3, Opus and FLAC are made when first fetched (issue 27), through the real server and render worker: a
 * completed 24-bit 48 kHz track links every format but stores only its WAV, MIDI and lyrics; the first fetch
 * encodes and stores the file, concurrent fetches share that one encode, later fetches (and byte ranges) are
 * served from storage; the FLAC decodes to exactly the WAV's PCM and the MP3 and Opus to the track's length.
 */
import test from 'ava';
import { access, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decode, probe } from './helpers/analysis/decode.ts';
import { eventually, type ServerProcess } from './helpers/process.ts';
import { sharedRender, type SharedRender } from './helpers/shared-render.ts';

const SECONDS = 30;

const render = sharedRender({
  prompt: 'a calm piano piece',
  duration: SECONDS,
  seed: 4,
  sample_rate: 48000,
  bit_depth: 24,
});
type Rendered = SharedRender;

/** Where the data dir keeps a generation's file of this extension. */
const stored = (rendered: Rendered, ext: string): string =>
  join(rendered.dataDir, 'audio', accountOf(rendered), `${rendered.generation.id}.${ext}`);

/** The account id, from the signed link's path (/files/<account>/<id>.wav). */
const accountOf = (rendered: Rendered): string =>
  /\/files\/([^/]+)\//.exec(rendered.generation.download_urls.wav)?.[1] ?? '';

const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

/** The log's lines saying a file was made on first download, for this format. */
const encodes = (server: ServerProcess, format: string): number =>
  server
    .stdout()
    .split('\n')
    .filter((line) => line.includes('file encoded on first download') && line.includes(`"format":"${format}"`)).length;

const download = async (url: string): Promise<Buffer> => {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
};

test.serial('a completed track links every format but stores only what the render made', async (t) => {
  const rendered = await render();
  t.deepEqual(Object.keys(rendered.generation.download_urls).sort(), ['flac', 'midi', 'mp3', 'opus', 'wav']);
  t.true(await exists(stored(rendered, 'wav')));
  t.true(await exists(stored(rendered, 'mid')));
  for (const ext of ['mp3', 'opus', 'flac']) t.false(await exists(stored(rendered, ext)), ext);
});

test.serial('concurrent first fetches of the FLAC share one encode, and it decodes to exactly the WAV', async (t) => {
  const rendered = await render();
  const url = rendered.generation.download_urls.flac;
  const [first, ...others] = await Promise.all([download(url), download(url), download(url)]);
  // Buffer.equals, not t.deepEqual: ava's deep comparison of megabytes takes many seconds.
  for (const other of others) t.true(other.equals(first!));
  t.is(encodes(rendered.server, 'flac'), 1);
  t.true(await exists(stored(rendered, 'flac')));
  t.true((await download(url)).equals(first!));
  t.is(encodes(rendered.server, 'flac'), 1, 'the second fetch is served from storage');

  const flacPath = join(rendered.dir, 'track.flac');
  const wavPath = join(rendered.dir, 'track.wav');
  await writeFile(flacPath, first!);
  await writeFile(wavPath, await download(rendered.generation.download_urls.wav));
  t.like(await probe(flacPath), { codec: 'flac', sampleRate: 48000, channels: 2 });
  const [flac, wav] = await Promise.all([decode(flacPath), decode(wavPath)]);
  t.is(flac.frames, SECONDS * 48000);
  t.is(flac.sha256, wav.sha256);
});

test.serial('the MP3 is made once, then served by byte range, and decodes to the track at 44.1 kHz', async (t) => {
  const rendered = await render();
  const url = rendered.generation.download_urls.mp3;
  const whole = await download(url);
  // Streamed as it was encoded (test/api-mp3-stream.test.ts): the download ends just before the file is stored.
  await eventually(() => (encodes(rendered.server, 'mp3') === 1 ? true : undefined), 60_000, 'the MP3 stored');
  const part = await fetch(url, { headers: { Range: 'bytes=1000-1999' } });
  t.is(part.status, 206);
  t.is(part.headers.get('content-range'), `bytes 1000-1999/${whole.length}`);
  // The stored file, whose info frame has its seek table: the audio frames after it are the streamed ones.
  t.deepEqual(Buffer.from(await part.arrayBuffer()), whole.subarray(1000, 2000));
  t.is(encodes(rendered.server, 'mp3'), 1);
  const path = join(rendered.dir, 'track.mp3');
  await writeFile(path, whole);
  t.like(await probe(path), { codec: 'mp3', sampleRate: 44100, channels: 2 });
  t.is((await decode(path)).frames, SECONDS * 44100);
});

test.serial('a byte range as the first fetch of the Opus encodes it and answers with those bytes', async (t) => {
  const rendered = await render();
  const url = rendered.generation.download_urls.opus;
  const part = await fetch(url, { headers: { Range: 'bytes=0-99' } });
  t.is(part.status, 206);
  t.is(part.headers.get('content-type'), 'audio/ogg; codecs=opus');
  const whole = await download(url);
  t.deepEqual(Buffer.from(await part.arrayBuffer()), whole.subarray(0, 100));
  t.is(encodes(rendered.server, 'opus'), 1);
  const path = join(rendered.dir, 'track.opus');
  await writeFile(path, whole);
  t.like(await probe(path), { codec: 'opus', sampleRate: 48000, channels: 2 });
  t.is((await decode(path)).frames, SECONDS * 48000);
});
