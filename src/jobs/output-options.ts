/** A generation's audio options as the engine takes them: every offered format, at the rate, depth and bitrate asked for. */
import type { OutputOptions } from '../../engine/index.ts';
import { ENCODED_FORMATS } from '../downloads.ts';
import type { Generation } from '../store/types.ts';

export function outputOf(generation: Generation): OutputOptions {
  const settings = generation.encoding;
  return {
    formats: [...ENCODED_FORMATS],
    ...(settings ? { sampleRate: settings.sample_rate, bitDepth: settings.bit_depth } : {}),
    ...(settings?.bitrate ? { mp3Bitrate: settings.bitrate as NonNullable<OutputOptions['mp3Bitrate']> } : {}),
  };
}
