/**
 * The body of POST /v1/generate, described once (GenerateBody): its type, its checks and its OpenAPI schema.
 * Everything not listed is refused by name; rules across fields follow in parseGenerateRequest.
 */
import { randomInt } from 'node:crypto';
import { z } from 'zod';
import { MAX_LYRICS_CHARS, MP3_BITRATES, TRACK_SECONDS, type StyleInfo } from '../../engine/index.ts';
import { ValidationError } from '../domain/errors.ts';
import { boolean, choice, httpUrl, number, text } from '../http/fields.ts';
import { parseWith, refuse, strictBody } from '../http/schema.ts';
import type { NewGeneration } from '../domain/model.ts';
import { musicalFieldsOf, musicalShape } from './musical-fields.ts';
import { planLength } from './plan-sections.ts';
import { sections } from './plan-schema.ts';
import { MAX_VARIATIONS } from './variations.ts';

export const LIMITS = {
  promptChars: 2000,
  lyricsChars: MAX_LYRICS_CHARS,
  callbackUrlChars: 2048,
  // The engine's plans fit their bars within these same limits, so they are its constant.
  minDuration: TRACK_SECONDS.min,
  maxDuration: TRACK_SECONDS.max,
  defaultDuration: 60,
  maxSeed: 2_147_483_647,
  sampleRates: [44100, 48000],
  bitDepths: [16, 24],
  mp3Bitrates: MP3_BITRATES,
} as const;

/** A style name as the engine publishes it; matched without regard to case, stored in the engine's spelling. */
function style(names: readonly string[]) {
  return text({ maxChars: 100 })
    .transform((given, ctx) => {
      const match = names.find((name) => name.toLowerCase() === given.toLowerCase());
      if (match !== undefined) return match;
      refuse(
        ctx,
        'unknown_style',
        () =>
          `Unknown style "${given}". Use one of: ${names.join(', ')} (or leave "style" out to infer it from the prompt).`,
      );
      return z.NEVER;
    })
    .nullish()
    .meta({
      // Not an enum: an account's own styles (POST /v1/styles) are names too, and differ from account to account.
      examples: [...names],
      description:
        'A name from GET /v1/styles (case-insensitive): a built-in style (the examples), or one of your own (POST /v1/styles). Omit or null to infer it from the prompt.',
    });
}

function generateBody(styles: readonly string[]) {
  return strictBody({
    prompt: text({ maxChars: LIMITS.promptChars }).meta({
      description: 'Trimmed; 1–2000 Unicode characters; no control characters except tab and line breaks.',
    }),
    duration: number({ min: LIMITS.minDuration, max: LIMITS.maxDuration, unit: 'seconds' })
      .nullish()
      .meta({ default: LIMITS.defaultDuration, description: 'Seconds; fractions allowed.' }),
    style: style(styles),
    instrumental: boolean().nullish().meta({ default: false }),
    seed: number({ min: 0, max: LIMITS.maxSeed, integer: true })
      .nullish()
      .meta({ description: 'The same request and seed give the same track. Omitted: drawn at random and returned.' }),
    lyrics: text({ maxChars: LIMITS.lyricsChars }).nullish().meta({
      description:
        'Words to sing (optional [Verse], [Chorus], [Pre-Chorus], [Bridge], [Intro], [Outro] tags). Only with instrumental false. More lines than the duration holds is a 400 (lyrics_too_long) saying how many fit.',
    }),
    stems: boolean().nullish().meta({
      default: false,
      description:
        'Also render one WAV per part (drums, bass, chords, pad, arp, lead, vocal, texture: those the track has), aligned frame for frame with the mix and mastered with it, so they add up to it. They are linked from stem_urls and, as one zip, download_urls.stems.',
    }),
    loop: boolean().nullish().meta({
      default: false,
      description:
        "A seamless loop: the duration moves to the nearest whole bar, there is no intro or ending, and what rings past the end is carried round onto the start. metadata.loop reports the bars and seconds, and the generation's duration is that real length from creation on.",
    }),
    callback_url: httpUrl(LIMITS.callbackUrlChars)
      .nullish()
      .meta({
        description:
          "http(s) URL that receives this task's generation.completed or generation.failed webhook (signed, retried; see docs/webhooks.md). Developer and Enterprise plans only (403 on Starter). " +
          'A URL that is or resolves to a loopback, private, link-local or metadata address is a 400 unsafe_url.',
      }),
    sample_rate: choice(LIMITS.sampleRates, 'Hz', 44100).nullish().meta({
      description:
        'Hz, of the WAV and the FLAC (the engine renders at 44.1 kHz; 48 kHz is resampled). MP3 stays at 44.1 kHz; Opus is always 48 kHz.',
    }),
    bit_depth: choice(LIMITS.bitDepths, 'bits', 16)
      .nullish()
      .meta({ description: 'Bits per sample of the WAV and the FLAC.' }),
    bitrate: choice(LIMITS.mp3Bitrates, 'kbps').nullish().meta({
      description: 'A constant MP3 bitrate in kbps. Omitted or null: LAME VBR -V2 (about 190 kbps on music).',
    }),
    sections: sections.nullish(),
    variations: number({ min: 1, max: MAX_VARIATIONS, integer: true })
      .nullish()
      .meta({
        description: `1–${MAX_VARIATIONS} generations from this one request: the same spec, each its own seed (the first is "seed"). Each counts against the quota; if the quota cannot take all of them none is made (402). The 202 is then a Batch, not a Generation, and an Idempotency-Key replays the whole batch.`,
      }),
    ...musicalShape,
  });
}

/**
 * The schema for a set of style names, kept for the sets last used: the built-in styles alone, and each account's
 * with its own styles (one slot would be rebuilt on every request as accounts with and without own styles alternate).
 */
const schemas = new Map<string, ReturnType<typeof generateBody>>();
const SCHEMAS_KEPT = 64;
export function generateRequestSchema(styles: readonly string[]): ReturnType<typeof generateBody> {
  const key = styles.join('\n');
  const kept = schemas.get(key);
  // Re-inserted on use, so the first key is the least recently used.
  schemas.delete(key);
  const schema = kept ?? generateBody(styles);
  schemas.set(key, schema);
  if (schemas.size > SCHEMAS_KEPT) {
    const oldest = schemas.keys().next().value;
    if (oldest !== undefined) schemas.delete(oldest);
  }
  return schema;
}

export type GenerateBody = z.input<ReturnType<typeof generateBody>>;

/** A validated POST /v1/generate body: a new task's fields less the account, which comes from the key. */
export type GenerateRequest = Omit<NewGeneration, 'account_id'>;

export function parseGenerateRequest(
  body: Record<string, unknown>,
  styles: readonly StyleInfo[],
): { request: GenerateRequest; variations: number | undefined } {
  const given = parseWith(generateRequestSchema(styles.map((s) => s.name)), body);
  const instrumental = given.instrumental ?? false;
  const lyrics = given.lyrics ?? null;
  if (lyrics !== null && instrumental) {
    throw new ValidationError(
      'lyrics',
      '"lyrics" cannot be used with "instrumental": true. Drop one of them.',
      'conflicting_fields',
    );
  }
  const music = musicalFieldsOf(given);
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
  const request = {
    prompt: given.prompt,
    duration: given.duration ?? LIMITS.defaultDuration,
    style: given.style ?? null,
    instrumental,
    seed: given.seed ?? randomInt(0, LIMITS.maxSeed + 1),
    lyrics,
    callback_url: given.callback_url == null ? null : withoutLineBreaks(given.callback_url),
    encoding: {
      sample_rate: given.sample_rate ?? 44100,
      bit_depth: given.bit_depth ?? 16,
      bitrate: given.bitrate ?? null,
    },
    // Kept only when asked for, so the records of ordinary tasks stay as they were.
    ...(given.stems === true ? { stems: true } : {}),
    ...(given.loop === true ? { loop: true } : {}),
    ...(music ? { music } : {}),
  };
  const variations = given.variations ?? undefined;
  const plan = given.sections;
  if (plan == null) return { request, variations };
  if (request.loop === true) {
    throw new ValidationError(
      'sections',
      '"sections" cannot be used with "loop": true (a loop has no intro or ending). Drop one of them.',
      'conflicting_fields',
    );
  }
  // The stored duration is the plan's exact length, so estimates, quotas and the render all see one number.
  const duration = planLength({ ...request, plan }, given.duration != null, {
    min: LIMITS.minDuration,
    max: LIMITS.maxDuration,
  });
  return { request: { ...request, duration, plan }, variations };
}

/** The URL parser drops tabs and line breaks in a URL: keep what it read, never a raw CR or LF. */
function withoutLineBreaks(url: string): string {
  return /[\t\n\r]/.test(url) ? new URL(url).href : url;
}
