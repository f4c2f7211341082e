/**
 * The MP3 as it is encoded (issue 27: a first download streams it): the info frame written ahead knows LAME's frame
 * count from the length alone, and the streamed bytes are the finished file (a VBR one's but for that frame's tag),
 * decoding (ffmpeg) to exactly the same samples.
 */
import test from 'ava';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeMp3 } from '../../engine/encode/mp3.ts';
import { lameFrameCount, mp3Frames } from '../../engine/encode/mp3-info.ts';
import { decode } from '../helpers/analysis/decode.ts';

/** A stereo signal with content in both channels (a tone under noise, seeded). */
function signal(samples: number, seed = 1): [Float32Array, Float32Array] {
  const left = new Float32Array(samples);
  const right = new Float32Array(samples);
  let state = seed;
  for (let i = 0; i < samples; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    const noise = (state / 2 ** 32 - 0.5) * 0.2;
    left[i] = 0.4 * Math.sin(i * 0.0627) + noise;
    right[i] = 0.3 * Math.sin(i * 0.0419) - noise;
  }
  return [left, right];
}

test("LAME's frame count follows from the length alone, VBR and constant bitrate, at every rate", async (t) => {
  const lengths = [1, 575, 576, 577, 1151, 1152, 1153, 2304, 44_100, 1152 * 64, 1152 * 64 + 1, 1152 * 100 - 1105];
  for (const sampleRate of [44_100, 48_000]) {
    for (const bitrate of [undefined, 128, 320] as const) {
      for (const length of lengths) {
        const [left, right] = signal(length, length);
        const file = await encodeMp3(left, right, sampleRate, bitrate);
        // The file's frames less its info frame.
        t.is(mp3Frames(file).length - 1, lameFrameCount(length), `${length} samples at ${sampleRate}, ${bitrate}`);
      }
    }
  }
});

for (const bitrate of [undefined, 192] as const) {
  test(`the pieces streamed while encoding are the file (VBR: but for its info frame's tag), and decode the same (${bitrate ?? 'VBR'})`, async (t) => {
    const samples = 44_100 * 5 + 123;
    const [left, right] = signal(samples);
    const pieces: Uint8Array[] = [];
    const file = await encodeMp3(left, right, 44_100, bitrate, (piece) => pieces.push(piece.slice()));
    t.true(pieces.length > 2, 'the audio comes in several pieces, not at the end');
    const streamed = Buffer.concat(pieces);
    const head = mp3Frames(file)[0]!.length;
    t.is(pieces[0]!.length, head, 'the first piece is an info frame of the finished one size');
    t.is(streamed.length, file.length);
    t.true(streamed.subarray(head).equals(Buffer.from(file).subarray(head)));
    if (bitrate === undefined)
      t.false(
        streamed.subarray(0, head).equals(Buffer.from(file).subarray(0, head)),
        'the finished VBR file has its seek table',
      );
    else
      t.true(streamed.equals(Buffer.from(file)), 'a constant-bitrate file is the streamed bytes, info frame and all');

    const dir = await mkdtemp(join(tmpdir(), 'tunesmith-mp3-stream-'));
    t.teardown(() => rm(dir, { recursive: true, force: true }));
    await writeFile(join(dir, 'streamed.mp3'), streamed);
    await writeFile(join(dir, 'file.mp3'), file);
    const [fromStream, fromFile] = await Promise.all([
      decode(join(dir, 'streamed.mp3')),
      decode(join(dir, 'file.mp3')),
    ]);
    t.is(fromFile.frames, samples, 'gapless: exactly the input');
    t.is(fromStream.frames, samples);
    t.is(fromStream.sha256, fromFile.sha256);
  });
}
