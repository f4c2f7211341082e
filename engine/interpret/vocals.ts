/**
 * Whether the track is sung, and by whom. The singer itself is built later; this only decides.
 * Order: an instrumental request or "no vocals" wins; humming is a wordless voice, not a singer; "a cappella",
 * lyrics or a song-asking word turn vocals on; otherwise a vocal style is sung unless the prompt reads as
 * instrumental ("beat", "soundscape", "tune"). Rap is rapped (compose/vocal/rap.ts); spoken words are sung, and
 * said so in a warning.
 */
import type { VoiceWords } from '../lexicon/sentences.ts';
import type { Random } from '../random.ts';
import type { Preset, SongSpec, TraceEntry } from '../types.ts';
import { BOUNDARY } from './tokenize.ts';
import type { VoiceReading } from './voice.ts';

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
  'tune',
  'tunes',
  'piece',
  'pieces',
  'sonata',
  'concerto',
  'etude',
  'prelude',
  'nocturne',
  'symphony',
  'overture',
  'fugue',
  'minuet',
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
  /** Vocal words found ("song", "vocals") as written ("no vocals", "vocals none") and whether negated. */
  asked: { phrase: string; negated: boolean }[];
  /** "instrumental" in the prompt. */
  noVocalWords: string[];
  about: string | null;
  tokens: readonly string[];
  /** "a cappella", "there are no instruments": voices and nothing else. */
  voicesOnly: string | null;
  voice: VoiceReading;
  words: VoiceWords;
  /** The instruments the prompt names (not negated). */
  lineup: readonly string[];
}

export interface VocalDecision {
  enabled: boolean;
  gender: 'female' | 'male';
  excluded: boolean;
  /** A wordless voice plays the melody instead of a singer ("a lullaby hummed by a mother"). */
  hum: string | null;
  /** How the voice was described, for SongSpec.vocals. */
  described: Omit<SongSpec['vocals'], 'enabled' | 'gender'>;
  trace: TraceEntry[];
  warnings: string[];
}

/** Instruments a prompt names, with no voice among them, that make it a description of an instrumental. */
const LINEUP = 3;

const NOT_AVAILABLE: Partial<Record<string, string>> = {
  spoken: 'the engine cannot speak words over the music',
};

export function decideVocals(signals: VocalSignals, preset: Preset, random: Random): VocalDecision {
  const trace: TraceEntry[] = [];
  const warnings: string[] = [];
  const { voice } = signals;
  const gender = chooseGender(signals.tokens, signals.words, voice.child, preset, random, trace);
  const refused = signals.asked.filter((a) => a.negated);
  const wanted = signals.asked.filter((a) => !a.negated);
  const hasLyrics = typeof signals.lyrics === 'string' && signals.lyrics.trim().length > 0;
  const described = describe(voice, signals.voicesOnly, trace);
  const done = (enabled: boolean, source: string, why: string, excluded = false, hum: string | null = null) => {
    trace.push({ source, effect: `vocals ${enabled ? 'on' : 'off'} (${why})` });
    const delivery = described.delivery;
    const missing = delivery ? NOT_AVAILABLE[delivery] : undefined;
    if (enabled && missing && voice.delivery) {
      warnings.push(`"${voice.delivery.phrase}": ${missing}, so the words are sung instead, by a ${gender} voice.`);
    }
    return { enabled, gender, excluded, hum, described: enabled ? described : {}, trace, warnings };
  };

  if (signals.requestInstrumental) return done(false, 'request', 'instrumental requested', true);
  if (refused.length > 0) return done(false, refused.map((r) => r.phrase).join(', '), 'the prompt excludes them', true);
  if (signals.noVocalWords.length > 0)
    return done(false, signals.noVocalWords.join(', '), 'the prompt asks for an instrumental', true);
  if (voice.delivery?.value === 'hummed' && !hasLyrics) {
    const { phrase } = voice.delivery;
    return done(false, phrase, 'hummed: a wordless voice plays the melody, no words are sung', false, phrase);
  }
  if (hasLyrics) return done(true, 'lyrics', 'lyrics were given');
  if (signals.voicesOnly) return done(true, signals.voicesOnly, 'voices and nothing else');
  if (wanted.length > 0) return done(true, wanted.map((w) => w.phrase).join(', '), 'the prompt asks for a song');
  if (signals.about) return done(true, `about ${signals.about}`, 'a song about something');
  if (!preset.vocal) return done(false, preset.name, `${preset.name} is instrumental by default`);
  // A description that lists its band and no voice describes an instrumental ("clean guitar arpeggios over a muted
  // bass and soft drums"); a short prompt naming a style is still sung.
  if (signals.lineup.length >= LINEUP) {
    return done(false, signals.lineup.join(', '), 'the prompt names its line-up and no singer');
  }
  const text = signals.tokens.filter((t) => t !== BOUNDARY).join(' ');
  const nature = signals.tokens.find((t) => INSTRUMENTAL_NATURE.has(t)) ?? text.match(TO_X_TO)?.[0];
  if (nature) return done(false, nature, 'the prompt describes instrumental music');
  return done(true, preset.name, `${preset.name} is sung by default`);
}

/** The voice's description as spec fields, each traced with the words that gave it. */
function describe(voice: VoiceReading, voicesOnly: string | null, trace: TraceEntry[]): VocalDecision['described'] {
  const described: VocalDecision['described'] = {};
  if (voice.quality) {
    described.quality = voice.quality.value;
    trace.push({ source: voice.quality.phrase, effect: `voice quality = ${voice.quality.value}` });
  }
  if (voice.child) {
    described.age = 'child';
    trace.push({ source: voice.child, effect: 'voice = a child (sung high, by the female voice)' });
  }
  if (voice.delivery && voice.delivery.value !== 'hummed') {
    described.delivery = voice.delivery.value;
    const value = voice.delivery.value;
    const sung = value === 'chanted' ? 'sung' : value === 'rapped' ? 'rapped' : 'sung instead (not available)';
    trace.push({ source: voice.delivery.phrase, effect: `delivery = ${voice.delivery.value}: ${sung}` });
  }
  if (voice.choir) {
    described.choir = true;
    trace.push({ source: voice.choir, effect: `a choir sings the line${voicesOnly ? ` (${voicesOnly})` : ''}` });
  }
  return described;
}

function chooseGender(
  tokens: readonly string[],
  words: VoiceWords,
  child: string | null,
  preset: Preset,
  random: Random,
  trace: TraceEntry[],
): 'female' | 'male' {
  const female = tokens.find((t) => FEMALE.has(t) || words.female.has(t));
  const male = tokens.find((t) => MALE.has(t) || words.male.has(t));
  // Drawn even when a word decides, so the seed stream does not depend on the wording.
  const seeded = random.chance(FEMALE_SHARE[preset.name] ?? 0.5) ? 'female' : 'male';
  // A child's voice sits in the female voice's register (the singer has no child's voice of its own).
  if (child && !male) return 'female';
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
