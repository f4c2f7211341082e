/**
 * A generation's audio options as the engine takes them: the WAV at the rate and depth asked for, and the lyrics
 * files. MP3, Opus and FLAC are made from the WAV when first fetched (src/domain/generations/generations.ts).
 */
import type { OutputOptions } from '../../engine/index.ts';
import { RENDERED_FORMATS } from '../domain/generations/files.ts';
import type { Generation } from '../domain/model.ts';

export function outputOf(generation: Generation): OutputOptions {
  const settings = generation.encoding;
  return {
    formats: [...RENDERED_FORMATS],
    ...(settings ? { sampleRate: settings.sample_rate, bitDepth: settings.bit_depth } : {}),
    ...(settings?.bitrate ? { mp3Bitrate: settings.bitrate as NonNullable<OutputOptions['mp3Bitrate']> } : {}),
  };
}
