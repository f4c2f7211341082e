/**
 * One format made later from a track's stored WAV (issue 27: the service encodes MP3, Opus and FLAC when first
 * fetched, not with every render). FLAC takes the WAV's own integers, so it decodes to exactly the WAV's PCM at any
 * depth and rate; MP3 and Opus take the WAV's samples as floats, at 44.1 kHz and 48 kHz as they always have.
 */
import type { OutputOptions } from '../types.ts';
import { encodeFlac } from './flac.ts';
import { encodeMp3, type Mp3Bitrate } from './mp3.ts';
import { encodeOpus } from './opus.ts';
import { resampleStereo } from './resample.ts';

/** The formats made from the WAV when first asked for. */
export const LATER_FORMATS = ['mp3', 'opus', 'flac'] as const;
export type LaterFormat = (typeof LATER_FORMATS)[number];

const MP3_RATE = 44_100;

export interface WavPcm {
  sampleRate: number;
  bitDepth: 16 | 24;
  left: Int32Array;
  right: Int32Array;
}

/** The PCM of a 16- or 24-bit stereo WAV (the chunks are walked, so a header longer than 44 bytes reads too). */
export function readWav(wav: Uint8Array): WavPcm {
  const view = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
  const tag = (at: number) => String.fromCharCode(...wav.subarray(at, at + 4));
  if (wav.byteLength < 12 || tag(0) !== 'RIFF' || tag(8) !== 'WAVE') throw new RangeError('Not a WAV file');
  let format: { rate: number; bits: number; channels: number } | undefined;
  for (let at = 12; at + 8 <= wav.byteLength; ) {
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (tag(at) === 'fmt ')
      format = {
        channels: view.getUint16(body + 2, true),
        rate: view.getUint32(body + 4, true),
        bits: view.getUint16(body + 14, true),
      };
    else if (tag(at) === 'data') {
      if (format?.channels !== 2 || (format.bits !== 16 && format.bits !== 24))
        throw new RangeError('Only 16- and 24-bit stereo WAV files can be encoded');
      const bytes = format.bits / 8;
      const frames = Math.floor(Math.min(size, wav.byteLength - body) / (2 * bytes));
      const left = new Int32Array(frames);
      const right = new Int32Array(frames);
      if (bytes === 2) {
        for (let i = 0, o = body; i < frames; i++, o += 4) {
          left[i] = view.getInt16(o, true);
          right[i] = view.getInt16(o + 2, true);
        }
      } else {
        for (let i = 0, o = body; i < frames; i++, o += 6) {
          left[i] = int24(wav, o);
          right[i] = int24(wav, o + 3);
        }
      }
      return { sampleRate: format.rate, bitDepth: format.bits, left, right };
    }
    at = body + size + (size % 2);
  }
  throw new RangeError('The WAV file has no audio data');
}

/** Three little-endian bytes as a signed integer. */
function int24(bytes: Uint8Array, at: number): number {
  return (((bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8) | ((bytes[at + 2] ?? 0) << 16)) << 8) >> 8;
}

/** Integers back to the floats they were rounded from (to16 and to24 scale by 2^(bits-1) − 1). */
function floats(samples: Int32Array, bitDepth: 16 | 24): Float32Array {
  const scale = 1 / (bitDepth === 24 ? 8388607 : 32767);
  const out = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = (samples[i] ?? 0) * scale;
  return out;
}

/**
 * `format`'s file made from the WAV's bytes; `mp3Bitrate` as the request's (absent: VBR -V2). `onPiece`: the MP3's
 * bytes as they are encoded, to stream (encodeMp3); the other formats are made whole and give none.
 */
export async function encodeFromWav(
  wav: Uint8Array,
  format: LaterFormat,
  options: Pick<OutputOptions, 'mp3Bitrate'> = {},
  onPiece?: (piece: Uint8Array) => void,
): Promise<Uint8Array> {
  const pcm = readWav(wav);
  if (format === 'flac') return encodeFlac([pcm.left, pcm.right], pcm.sampleRate, pcm.bitDepth);
  const left = floats(pcm.left, pcm.bitDepth);
  const right = floats(pcm.right, pcm.bitDepth);
  if (format === 'opus') return encodeOpus(left, right, pcm.sampleRate);
  const [l, r] = resampleStereo(left, right, pcm.sampleRate, MP3_RATE);
  return encodeMp3(l, r, MP3_RATE, options.mp3Bitrate as Mp3Bitrate | undefined, onPiece);
}
