/**
 * 16-bit PCM stereo WAV. Samples are quantised with TPDF dither (±1 LSB triangular noise) so quiet tails fade
 * into noise rather than into distortion; the dither comes from a fixed-seed stream, so the same audio always
 * encodes to the same bytes.
 */
import wavefile from 'wavefile';
import { createRandom } from '../random.ts';

const DITHER_SEED = 0x5eed;

function quantise(channel: Float32Array, next: () => number): Int16Array {
  const out = new Int16Array(channel.length);
  for (let i = 0; i < channel.length; i++) {
    const dithered = channel[i]! * 32767 + (next() - next());
    out[i] = Math.max(-32768, Math.min(32767, Math.round(dithered)));
  }
  return out;
}

export function encodeWav(left: Float32Array, right: Float32Array, sampleRate: number): Uint8Array {
  if (left.length !== right.length) throw new RangeError(`Channels must have the same length, got: ${left.length} and ${right.length}`);
  const random = createRandom(DITHER_SEED, 'dither');
  const wav = new wavefile.WaveFile();
  wav.fromScratch(2, sampleRate, '16', [quantise(left, random.next), quantise(right, random.next)]);
  return wav.toBuffer();
}
