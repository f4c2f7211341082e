/**
 * Every file a track is offered as, from the mastered float audio: the WAV (16/24 bit, 44.1/48 kHz), the same
 * PCM as FLAC, MP3 and Ogg Opus, and the sung lyrics as LRC and WebVTT. The default output (16-bit 44.1 kHz
 * WAV) is byte for byte what encodeWav has always written.
 */
import type { LyricTiming, OutputOptions } from '../types.ts';
import { encodeFlac } from './flac.ts';
import { lyricsLrc, lyricsVtt } from './lyrics-files.ts';
import { encodeMp3 } from './mp3.ts';
import { encodeOpus, OPUS_RATE } from './opus.ts';
import { resampleStereo } from './resample.ts';
import { encodeWav, to16, to24 } from './wav.ts';
import { free } from '../render/free.ts';

/** The files beyond the WAV and the MIDI. */
export interface EncodedOutputs {
  mp3?: Uint8Array;
  opus?: Uint8Array;
  flac?: Uint8Array;
  lrc?: Uint8Array;
  vtt?: Uint8Array;
}

export interface EncodeInput {
  left: Float32Array;
  right: Float32Array;
  sampleRate: number;
  title: string;
  /** The sung lines, or null for an instrumental (no lyrics files). */
  lyrics: readonly LyricTiming[] | null;
}

export interface EncodeResult {
  wav: Uint8Array;
  outputs: EncodedOutputs;
  /** Milliseconds spent per format (for benchmarks and logs). */
  timings: Partial<Record<keyof EncodedOutputs | 'wav', number>>;
}

/** `onProgress`: the share of the formats done, 0–1, after each one. */
export async function encodeOutputs(
  input: EncodeInput,
  options: OutputOptions = {},
  onProgress?: (done: number) => void,
): Promise<EncodeResult> {
  const formats = new Set(options.formats ?? []);
  const steps = 1 + (['flac', 'mp3', 'opus'] as const).filter((format) => formats.has(format)).length;
  let finished = 0;
  const bitDepth = options.bitDepth ?? 16;
  const rate = options.sampleRate ?? input.sampleRate;
  const timings: EncodeResult['timings'] = {};
  const timed = async <T>(name: keyof EncodeResult['timings'], work: () => T | Promise<T>): Promise<T> => {
    const started = performance.now();
    const result = await work();
    timings[name] = Math.round(performance.now() - started);
    onProgress?.(++finished / steps);
    return result;
  };

  // WAV and FLAC share the delivered rate; MP3 stays at the master's rate and Opus resamples to 48 kHz itself.
  const { left, right, wav } = await timed('wav', () => {
    const [l, r] = resampleStereo(input.left, input.right, input.sampleRate, rate);
    return { left: l, right: r, wav: encodeWav(l, r, rate, bitDepth) };
  });
  const outputs: EncodedOutputs = {};
  if (formats.has('flac'))
    outputs.flac = await timed('flac', async () => {
      const channels = integerChannels(left, right, bitDepth);
      const flac = await encodeFlac(channels, rate, bitDepth);
      free(...channels);
      return flac;
    });
  if (formats.has('mp3'))
    outputs.mp3 = await timed('mp3', () => encodeMp3(input.left, input.right, input.sampleRate, options.mp3Bitrate));
  // Opus codes at 48 kHz: a 48 kHz WAV's samples are reused rather than resampled a second time.
  const opusSource =
    rate === OPUS_RATE ? { l: left, r: right, rate } : { l: input.left, r: input.right, rate: input.sampleRate };
  if (formats.has('opus'))
    outputs.opus = await timed('opus', () => encodeOpus(opusSource.l, opusSource.r, opusSource.rate));
  if (input.lyrics && input.lyrics.length > 0) {
    const duration = input.left.length / input.sampleRate;
    if (formats.has('lrc')) outputs.lrc = Buffer.from(lyricsLrc(input.lyrics, input.title, duration), 'utf8');
    if (formats.has('vtt')) outputs.vtt = Buffer.from(lyricsVtt(input.lyrics), 'utf8');
  }
  // A resampled copy is ours: it goes now, not at the next garbage collection.
  if (left !== input.left) free(left, right);
  return { wav, outputs, timings };
}

/** The WAV's own integer samples, one array per channel, so the FLAC decodes to exactly the WAV's PCM. */
function integerChannels(left: Float32Array, right: Float32Array, bitDepth: 16 | 24): [Int32Array, Int32Array] {
  const convert = bitDepth === 24 ? to24 : to16;
  const l = new Int32Array(left.length);
  const r = new Int32Array(right.length);
  for (let i = 0; i < l.length; i++) {
    l[i] = convert(left[i] ?? 0);
    r[i] = convert(right[i] ?? 0);
  }
  return [l, r];
}
