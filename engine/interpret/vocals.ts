/**
 * Whether the track is sung, and by whom. The singer itself is built later; this only decides.
 * Order: an instrumental request or "no vocals" wins; lyrics or a song-asking word turn vocals on;
 * otherwise a vocal style is sung unless the prompt reads as instrumental ("beat", "soundscape").
 */
import type { Random } from '../random.ts';
import type { Preset, TraceEntry } from '../types.ts';
import { BOUNDARY } from './tokenize.ts';

export const FEMALE = new Set([
  'female',
  'woman',
  'women',
  'girl',
  'girls',
  'she',
  'her',
  'soprano',
  'alto',
  'diva',
  'feminine',
]);
export const MALE = new Set([
  'male',
  'man',
  'men',
  'boy',
  'boys',
  'he',
  'his',
  'him',
  'baritone',
  'tenor',
  'masculine',
  'guy',
  'guys',
]);
/** Words that describe music made to sit under something else: no singer unless asked. */
export const INSTRUMENTAL_NATURE = new Set([
  'beat',
  'beats',
  'soundscape',
  'soundscapes',
  'loop',
  'loops',
  'background',
  'bgm',
  'backing',
  'theme',
  'underscore',
  'ambience',
  'score',
  'cue',
  'sound',
  'sounds',
]);
/** "music to study to", "to sleep to". */
const TO_X_TO = /\bto\s+(?:study|work|sleep|relax|focus|read|code|chill|meditate)\s+to\b/;
/** Chance of a female voice per style when the prompt does not say (keeps voices varied by seed). */
const FEMALE_SHARE: Record<string, number> = {
  pop: 0.6,
  soul: 0.6,
  rock: 0.35,
  folk: 0.5,
  jazz: 0.6,
  reggae: 0.3,
  hiphop: 0.3,
  trap: 0.3,
};

export interface VocalSignals {
  requestInstrumental: boolean;
  lyrics: string | null | undefined;
  /** Vocal words found ("song", "vocals") and whether negated ("no vocals"). */
  asked: { phrase: string; negated: boolean }[];
  /** "instrumental" in the prompt. */
  noVocalWords: string[];
  about: string | null;
  tokens: readonly string[];
}

export function decideVocals(
  signals: VocalSignals,
  preset: Preset,
  random: Random,
): { enabled: boolean; gender: 'female' | 'male'; excluded: boolean; trace: TraceEntry[] } {
  const trace: TraceEntry[] = [];
  const gender = chooseGender(signals.tokens, preset, random, trace);
  const refused = signals.asked.filter((a) => a.negated);
  const wanted = signals.asked.filter((a) => !a.negated);
  const hasLyrics = typeof signals.lyrics === 'string' && signals.lyrics.trim().length > 0;
  const done = (enabled: boolean, source: string, why: string, excluded = false) => {
    trace.push({ source, effect: `vocals ${enabled ? 'on' : 'off'} (${why})` });
    return { enabled, gender, excluded, trace };
  };

  if (signals.requestInstrumental) return done(false, 'request', 'instrumental requested', true);
  if (refused.length > 0) return done(false, refused.map((r) => r.phrase).join(', '), 'the prompt excludes them', true);
  if (signals.noVocalWords.length > 0)
    return done(false, signals.noVocalWords.join(', '), 'the prompt asks for an instrumental', true);
  if (hasLyrics) return done(true, 'lyrics', 'lyrics were given');
  if (wanted.length > 0) return done(true, wanted.map((w) => w.phrase).join(', '), 'the prompt asks for a song');
  if (signals.about) return done(true, `about ${signals.about}`, 'a song about something');
  if (!preset.vocal) return done(false, preset.name, `${preset.name} is instrumental by default`);
  const text = signals.tokens.filter((t) => t !== BOUNDARY).join(' ');
  const nature = signals.tokens.find((t) => INSTRUMENTAL_NATURE.has(t)) ?? text.match(TO_X_TO)?.[0];
  if (nature) return done(false, nature, 'the prompt describes instrumental music');
  return done(true, preset.name, `${preset.name} is sung by default`);
}

function chooseGender(
  tokens: readonly string[],
  preset: Preset,
  random: Random,
  trace: TraceEntry[],
): 'female' | 'male' {
  const female = tokens.find((t) => FEMALE.has(t));
  const male = tokens.find((t) => MALE.has(t));
  // Drawn even when a word decides, so the seed stream does not depend on the wording.
  const seeded = random.chance(FEMALE_SHARE[preset.name] ?? 0.5) ? 'female' : 'male';
  if (female && !male) {
    trace.push({ source: female, effect: 'voice = female' });
    return 'female';
  }
  if (male && !female) {
    trace.push({ source: male, effect: 'voice = male' });
    return 'male';
  }
  trace.push({ source: 'seed', effect: `voice = ${seeded} (chosen for ${preset.name})` });
  return seeded;
}
