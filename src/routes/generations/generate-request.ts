/**
 * The body of POST /v1/generate, checked field by field. Everything not listed here is refused by name.
 */
import { randomInt } from 'node:crypto';
import { MAX_LYRICS_CHARS, MP3_BITRATES, type StyleInfo } from '../../../engine/index.ts';
import { ValidationError } from '../../http/errors.ts';
import {
  readBoolean,
  readChoice,
  readHttpUrl,
  readNumber,
  readText,
  rejectUnknownFields,
} from '../../http/validate.ts';
import type { NewGeneration } from '../../store/types.ts';
import { MUSICAL_FIELDS, readMusicalFields } from './musical-fields.ts';
import { planLength, readSections } from './plan-sections.ts';

export const GENERATE_FIELDS = [
  'prompt',
  'duration',
  'style',
  'instrumental',
  'seed',
  'lyrics',
  'stems',
  'loop',
  'callback_url',
  'sample_rate',
  'bit_depth',
  'bitrate',
  'sections',
  'variations',
  ...MUSICAL_FIELDS,
] as const;

export const LIMITS = {
  promptChars: 2000,
  lyricsChars: MAX_LYRICS_CHARS,
  callbackUrlChars: 2048,
  minDuration: 30,
  maxDuration: 180,
  defaultDuration: 60,
  maxSeed: 2_147_483_647,
  sampleRates: [44100, 48000],
  bitDepths: [16, 24],
  mp3Bitrates: MP3_BITRATES,
} as const;

/** A validated POST /v1/generate body: a new task's fields less the account, which comes from the key. */
export type GenerateRequest = Omit<NewGeneration, 'account_id'>;

export function parseGenerateRequest(body: Record<string, unknown>, styles: readonly StyleInfo[]): GenerateRequest {
  rejectUnknownFields(body, GENERATE_FIELDS);
  const prompt = readText(body, 'prompt', { required: true, maxChars: LIMITS.promptChars });
  const duration =
    readNumber(body, 'duration', { min: LIMITS.minDuration, max: LIMITS.maxDuration, unit: 'seconds' }) ??
    LIMITS.defaultDuration;
  const style = readStyle(body, styles);
  const instrumental = readBoolean(body, 'instrumental') ?? false;
  const seed =
    readNumber(body, 'seed', { min: 0, max: LIMITS.maxSeed, integer: true }) ?? randomInt(0, LIMITS.maxSeed + 1);
  const lyrics = readText(body, 'lyrics', { maxChars: LIMITS.lyricsChars }) ?? null;
  if (lyrics !== null && instrumental) {
    throw new ValidationError(
      'lyrics',
      '"lyrics" cannot be used with "instrumental": true. Drop one of them.',
      'conflicting_fields',
    );
  }
  const callback_url = readHttpUrl(body, 'callback_url', LIMITS.callbackUrlChars) ?? null;
  const encoding = {
    sample_rate: readChoice(body, 'sample_rate', LIMITS.sampleRates, 'Hz') ?? 44100,
    bit_depth: readChoice(body, 'bit_depth', LIMITS.bitDepths, 'bits') ?? 16,
    bitrate: readChoice(body, 'bitrate', LIMITS.mp3Bitrates, 'kbps') ?? null,
  };
  // Kept only when asked for, so the records of ordinary tasks stay as they were.
  const extras = {
    ...(readBoolean(body, 'stems') === true ? { stems: true } : {}),
    ...(readBoolean(body, 'loop') === true ? { loop: true } : {}),
  };
  const music = readMusicalFields(body);
  if (
    lyrics !== null &&
    music?.exclude?.some((name) => name === 'vocals' || name === 'vocal' || name === 'voice' || name === 'singing')
  ) {
    throw new ValidationError(
      'exclude',
      '"lyrics" cannot be sung when "exclude" leaves out the vocals. Drop one of them.',
      'conflicting_fields',
    );
  }
  const plan = readSections(body);
  if (plan === undefined)
    return {
      prompt,
      duration,
      style,
      instrumental,
      seed,
      lyrics,
      callback_url,
      encoding,
      ...extras,
      ...(music ? { music } : {}),
    };
  if (extras.loop === true) {
    throw new ValidationError(
      'sections',
      '"sections" cannot be used with "loop": true (a loop has no intro or ending). Drop one of them.',
      'conflicting_fields',
    );
  }
  // The stored duration is the plan's exact length, so estimates, quotas and the render all see one number.
  const planned = planLength(
    { prompt, duration, style, instrumental, seed, lyrics, ...(music ? { music } : {}), plan },
    Object.hasOwn(body, 'duration') && body.duration !== null,
    { min: LIMITS.minDuration, max: LIMITS.maxDuration },
  );
  return {
    prompt,
    duration: planned,
    style,
    instrumental,
    seed,
    lyrics,
    callback_url,
    encoding,
    ...extras,
    ...(music ? { music } : {}),
    plan,
  };
}

/** A style name as the engine publishes it; matched without regard to case, stored in the engine's spelling. */
function readStyle(body: Record<string, unknown>, styles: readonly StyleInfo[]): string | null {
  const given = readText(body, 'style', { maxChars: 100 });
  if (given === undefined) return null;
  const match = styles.find((s) => s.name.toLowerCase() === given.toLowerCase());
  if (!match) {
    const names = styles.map((s) => s.name).join(', ');
    throw new ValidationError(
      'style',
      `Unknown style "${given}". Use one of: ${names} (or leave "style" out to infer it from the prompt).`,
      'unknown_style',
    );
  }
  return match.name;
}
