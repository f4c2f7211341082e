/** `tunesmith render`'s output options: which file format, at which rate, depth and bitrate, checked like the API's. */
import { MP3_BITRATES, type OutputOptions } from '../../engine/index.ts';
import { UsageError, text } from './usage.ts';

export const CLI_FORMATS = ['wav', 'mp3', 'opus', 'flac'] as const;
export type CliFormat = (typeof CLI_FORMATS)[number];

export interface RenderOutput {
  format: CliFormat;
  options: OutputOptions;
}

function choice<T extends string | number>(
  flag: string,
  value: string | boolean | undefined,
  allowed: readonly T[],
): T | undefined {
  const given = text(value);
  if (given === undefined) return undefined;
  const match = allowed.find((option) => String(option) === given);
  if (match === undefined) throw new UsageError(`${flag} expects one of ${allowed.join(', ')}, got "${given}".`);
  return match;
}

export function readRenderOutput(values: Record<string, string | boolean | undefined>): RenderOutput {
  const format = choice('--format', values.format, CLI_FORMATS) ?? 'wav';
  const sampleRate = choice('--sample-rate', values['sample-rate'], [44100, 48000] as const);
  const bitDepth = choice('--bit-depth', values['bit-depth'], [16, 24] as const);
  const bitrate = choice('--bitrate', values.bitrate, MP3_BITRATES);
  if ((sampleRate !== undefined || bitDepth !== undefined) && (format === 'mp3' || format === 'opus')) {
    throw new UsageError(
      `--sample-rate and --bit-depth apply to wav and flac; ${format} is always ${format === 'mp3' ? '44.1 kHz' : '48 kHz'}.`,
    );
  }
  if (bitrate !== undefined && format !== 'mp3') throw new UsageError('--bitrate applies to --format mp3 only.');
  return {
    format,
    options: {
      formats: format === 'wav' ? [] : [format],
      ...(sampleRate ? { sampleRate } : {}),
      ...(bitDepth ? { bitDepth } : {}),
      ...(bitrate ? { mp3Bitrate: bitrate } : {}),
    },
  };
}
