/**
 * The encoders' WebAssembly builds load offline and leave the process as they found it: no fetch (libflacjs
 * would fetch its .wasm on Node ≥ 18, wasm-media-encoders a data URL), and no uncaughtException or
 * unhandledRejection hooks (the opus build installs both). Run in a fresh process: each build loads once.
 */
import test from 'ava';
import { encodeFlac } from '../../engine/encode/flac.ts';
import { encodeMp3 } from '../../engine/encode/mp3.ts';
import { encodeOpus } from '../../engine/encode/opus.ts';

test.serial('MP3, Opus and FLAC encode without calling fetch and without adding process hooks', async (t) => {
  const fetched: string[] = [];
  const realFetch = globalThis.fetch;
  const stub = ((input: unknown) => {
    fetched.push(String(input));
    return Promise.reject(new Error('no network in this test'));
  }) as typeof fetch;
  globalThis.fetch = stub;
  t.teardown(() => {
    globalThis.fetch = realFetch;
  });
  const hooks = () => [process.listenerCount('uncaughtException'), process.listenerCount('unhandledRejection')];
  const before = hooks();
  const left = Float32Array.from({ length: 44100 }, (_, i) => 0.3 * Math.sin((2 * Math.PI * 440 * i) / 44100));
  const right = left.slice();
  const pcm = Int32Array.from(left, (v) => Math.round(v * 32767));
  const [mp3, opus, flac] = await Promise.all([
    encodeMp3(left, right, 44100),
    encodeOpus(left, right, 44100),
    encodeFlac([pcm, pcm.slice()], 44100, 16),
  ]);
  t.true(mp3.byteLength > 1000 && opus.byteLength > 1000 && flac.byteLength > 1000);
  t.deepEqual(fetched, []);
  t.deepEqual(hooks(), before);
  t.is(globalThis.fetch, stub, 'fetch is put back as it was');
});
