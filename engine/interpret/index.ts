/**
 * Stage 1 of the engine: interpret(request) -> SongSpec. Pure and deterministic: the same request
 * gives a deep-equal spec, and randomness comes only from seeded streams ("interpret/key", ...).
 *
 * Precedence: explicit values ("92 bpm", "in F# minor", "3/4") > instrument and genre words >
 * scene words > mood words > genre defaults. `request.style` sets the genre outright.
 * Every value set is explained in `trace`.
 */
import { getPreset, presetNames } from '../presets.ts';
import { createRandom } from '../random.ts';
import { getLexicon, type Hints, type Lexicon } from '../lexicon/index.ts';
import type { GenerationRequest, Mode, Patch, PitchClass, Preset, Role, SongSpec, TraceEntry } from '../types.ts';
import { extractExplicit } from './explicit.ts';
import { chooseGenre } from './genre.ts';
import { arrange, type InstrumentWord } from './instruments.ts';
import { matchPrompt, type Content } from './match.ts';
import { bpmFromArousal, brightnessFrom, clamp, densityFromArousal, modeFromValence, reverbFrom, round2 } from './mood.ts';
import { makeTitle, type TitleWord } from './title.ts';
import { tokenize } from './tokenize.ts';
import { decideVocals } from './vocals.ts';

/** Tonics that suit a genre's usual instruments (guitar keys for guitar music, flat keys for horns). */
const TONICS_BY_GENRE: Record<string, readonly PitchClass[]> = {
  rock: ['E', 'A', 'D', 'G', 'C'],
  folk: ['G', 'D', 'C', 'A', 'E'],
  reggae: ['A', 'G', 'D', 'C', 'F'],
  jazz: ['F', 'Bb', 'Eb', 'C', 'G', 'Ab'],
  orchestral: ['D', 'C', 'G', 'E', 'F', 'Bb', 'A'],
  piano: ['C', 'D', 'Eb', 'E', 'F', 'G', 'Ab', 'A', 'Bb', 'B'],
  waltz: ['D', 'G', 'F', 'Bb', 'C', 'A'],
};
const ALL_TONICS: readonly PitchClass[] = ['C', 'C#', 'D', 'Eb', 'E', 'F', 'F#', 'G', 'Ab', 'A', 'Bb', 'B'];

/** A hint scaled by its intensifier; negation flips VA and numeric nudges and cancels booleans. */
function scaleHints(hints: Hints, factor: number, negated: boolean): Hints {
  const sign = negated ? -1 : 1;
  const scale = (x: number | undefined) => (x === undefined ? undefined : x * factor * sign);
  return {
    valence: scale(hints.valence),
    arousal: scale(hints.arousal),
    tempo: scale(hints.tempo),
    reverb: scale(hints.reverb),
    reverbDecay: scale(hints.reverbDecay),
    delay: scale(hints.delay),
    density: scale(hints.density),
    swing: scale(hints.swing),
    brightness: hints.brightness === undefined ? undefined : hints.brightness ** (factor * sign),
    mode: negated ? undefined : hints.mode,
    genres: negated ? undefined : hints.genres,
    instruments: negated ? undefined : hints.instruments,
    rain: negated ? undefined : hints.rain,
    lofi: hints.lofi === undefined ? undefined : !negated,
  };
}

function describeVA(h: Hints): string {
  const parts: string[] = [];
  const fmt = (x: number) => (x > 0 ? `+${round2(x)}` : `${round2(x)}`);
  if (h.valence) parts.push(`valence ${fmt(h.valence)}`);
  if (h.arousal) parts.push(`arousal ${fmt(h.arousal)}`);
  if (h.tempo) parts.push(`tempo ${fmt(h.tempo)}`);
  if (h.mode) parts.push(`mode hint ${h.mode}`);
  if (h.rain) parts.push('rain');
  if (h.lofi !== undefined) parts.push(`lo-fi ${h.lofi ? 'on' : 'off'}`);
  if (h.reverb) parts.push(`reverb ${fmt(h.reverb)}`);
  if (h.reverbDecay) parts.push(`decay ${fmt(h.reverbDecay)}s`);
  if (h.delay) parts.push(`delay ${fmt(h.delay)}`);
  if (h.density) parts.push(`density ${fmt(h.density)}`);
  if (h.swing) parts.push(`swing ${fmt(h.swing)}`);
  if (h.brightness) parts.push(`brightness ×${round2(h.brightness)}`);
  return parts.join(', ') || 'no effect';
}

function blendNumber(a: number, b: number | undefined, weight: number): number {
  return b === undefined ? a : a * (1 - weight) + b * weight;
}

export function interpret(request: GenerationRequest, lexicon: Lexicon = getLexicon(() => presetNames().map(getPreset))): SongSpec {
  const trace: TraceEntry[] = [];
  const explicit = extractExplicit(request.prompt);
  const tokens = tokenize(explicit.rest);
  const match = matchPrompt(tokens, lexicon);
  const recognisedAnything = match.recognised > 0 || explicit.found.length > 0;
  if (!recognisedAnything) trace.push({ source: 'default', effect: 'no recognised words: defaults' });

  // Hint words, scaled and traced in prompt order.
  const hintWords = match.content.filter((c): c is Extract<Content, { kind: 'hint' }> => c.kind === 'hint');
  const instrumentContent = match.content.filter((c): c is Extract<Content, { kind: 'instrument' }> => c.kind === 'instrument');
  const scaled: { phrase: string; hints: Hints; lexicon: string }[] = [];
  for (const word of hintWords) {
    if (word.negated && word.lexicon === 'scene') {
      trace.push({ source: `${word.phrase} (negated)`, effect: 'ignored' });
      continue;
    }
    const hints = scaleHints(word.hints, word.factor, word.negated);
    const source = [word.negated ? 'not' : '', word.intensifier ?? '', word.phrase].filter(Boolean).join(' ');
    scaled.push({ phrase: source, hints, lexicon: word.lexicon });
  }
  // Instrument words may carry hints too ("rainy piano" brings rain).
  for (const word of instrumentContent) {
    if (word.negated) continue;
    const { patch: _p, roles: _r, generic: _g, note: _n, ...hints } = word.entry;
    if (Object.keys(hints).length > 0 && (hints.valence !== undefined || hints.arousal !== undefined || hints.rain !== undefined)) {
      scaled.push({ phrase: word.phrase, hints: { valence: hints.valence, arousal: hints.arousal, rain: hints.rain }, lexicon: 'instrument' });
    }
  }
  const sum = (field: 'valence' | 'arousal' | 'tempo' | 'reverb' | 'reverbDecay' | 'delay' | 'density' | 'swing') =>
    scaled.reduce((total, s) => total + (s.hints[field] ?? 0), 0);

  // Asked for a singer in so many words (or lyrics): decides the fallback genre and whether "solo piano" keeps a voice.
  const wantsSong =
    match.content.some((c) => c.kind === 'vocal' && !c.negated) || explicit.about !== null || Boolean(request.lyrics?.trim());

  // Genre.
  let preset: Preset;
  let blendPreset: Preset | null = null;
  let blend: SongSpec['blend'] = null;
  if (request.style !== null && request.style !== undefined && request.style !== '') {
    preset = getPreset(request.style);
    trace.push({ source: 'style', effect: `genre = ${preset.name} (style preset)` });
  } else {
    const choice = chooseGenre(match.content, sum('arousal'), recognisedAnything, wantsSong, (g) => getPreset(g).vocal, createRandom(request.seed, 'interpret/genre'));
    preset = getPreset(choice.genre);
    trace.push({ source: choice.source, effect: `genre = ${preset.name} (${choice.why})` });
    if (choice.blend) {
      blendPreset = getPreset(choice.blend.genre);
      blend = choice.blend;
      trace.push({ source: blendPreset.name, effect: `blend ${blendPreset.name} at weight ${blend.weight}` });
    }
  }
  for (const c of match.content) {
    if (c.kind === 'genre' && c.negated) trace.push({ source: `not ${c.phrase}`, effect: `genre ${c.entry.genre} ruled out` });
  }

  // Valence and arousal: the genre's prior plus every word, clamped.
  const w = blend?.weight ?? 0;
  const priorValence = round2(blendNumber(preset.valence, blendPreset?.valence, w));
  const priorArousal = round2(blendNumber(preset.arousal, blendPreset?.arousal, w));
  trace.push({ source: preset.name, effect: `prior valence ${priorValence}, arousal ${priorArousal}` });
  for (const s of scaled) trace.push({ source: s.phrase, effect: describeVA(s.hints) });
  const valence = round2(clamp(priorValence + sum('valence'), -1, 1));
  const arousal = round2(clamp(priorArousal + sum('arousal'), -1, 1));
  trace.push({ source: 'mood', effect: `valence = ${valence}, arousal = ${arousal}` });

  // Meter, tempo, swing.
  const meter = explicit.meter ?? { ...preset.meter };
  const meterSource = explicit.found.find((f) => f.kind === 'meter')?.source;
  trace.push({ source: meterSource ?? preset.name, effect: `meter = ${meter.beatsPerBar}/${meter.beatUnit} (${meterSource ? 'explicit' : 'genre'})` });
  let bpm: number;
  const bpmSource = explicit.found.find((f) => f.kind === 'bpm')?.source;
  if (explicit.bpm !== null) {
    bpm = explicit.bpm;
    const clamped = explicit.bpmWritten !== explicit.bpm ? `, clamped from ${explicit.bpmWritten}` : '';
    trace.push({ source: bpmSource!, effect: `bpm = ${bpm} (explicit${clamped})` });
  } else {
    const jitter = createRandom(request.seed, 'interpret/tempo').range(-2, 2);
    bpm = bpmFromArousal(preset, arousal, preset.arousal, sum('tempo'), jitter);
    trace.push({ source: 'arousal', effect: `bpm = ${bpm} (${preset.name} range ${preset.bpm.min}–${preset.bpm.max}, arousal ${arousal})` });
  }
  const swing = round2(clamp(preset.swing + sum('swing'), 0, 1));
  trace.push({ source: preset.name, effect: `swing = ${swing}` });

  // Key.
  const keyRandom = createRandom(request.seed, `interpret/key/${preset.name}`);
  const seededTonic = keyRandom.pick(TONICS_BY_GENRE[preset.name] ?? ALL_TONICS);
  const tonic = explicit.tonic ?? seededTonic;
  const keySource = explicit.found.find((f) => f.kind === 'key' || f.kind === 'mode')?.source;
  let mode: Mode;
  if (explicit.mode) {
    mode = explicit.mode;
  } else {
    const hinted = scaled.filter((s) => s.hints.mode).at(-1)?.hints.mode ?? null;
    const chosen = modeFromValence(valence, blendPreset ? [...preset.modes, ...blendPreset.modes] : preset.modes, hinted);
    mode = chosen.mode;
    trace.push({ source: 'valence', effect: `mode = ${mode} (${chosen.why})` });
  }
  trace.push({
    source: keySource ?? 'seed',
    effect: `key = ${tonic} ${mode} (${explicit.tonic ? 'explicit tonic' : `tonic chosen by seed for ${preset.name}`}${explicit.mode ? ', explicit mode' : ''})`,
  });

  // Density and effects.
  const density = densityFromArousal(arousal, sum('density'));
  trace.push({ source: 'arousal', effect: `density = ${density}` });
  const brightnessFactor = scaled.reduce((f, s) => f * (s.hints.brightness ?? 1), 1);
  const { reverb, reverbDecay } = reverbFrom(preset, arousal, sum('reverb'), sum('reverbDecay'));
  const delay = round2(clamp(preset.effects.delay + sum('delay'), 0, 1));
  const lofiWords = scaled.filter((s) => s.hints.lofi !== undefined);
  const lofiForced = lofiWords.at(-1)?.hints.lofi;
  // A lo-fi genre word keeps its sound even when a style or another genre wins ("lo-fi" with style jazz).
  const lofiGenreWord = match.content.find((c) => c.kind === 'genre' && !c.negated && getPreset(c.entry.genre).effects.lofi);
  const lofi = lofiForced ?? (preset.effects.lofi || (blendPreset?.effects.lofi ?? false) || lofiGenreWord !== undefined);
  const rainWords = scaled.filter((s) => s.hints.rain).map((s) => s.phrase);
  const effects: SongSpec['effects'] = { reverb, reverbDecay, delay, lofi, rain: rainWords.length > 0, brightness: brightnessFrom(preset, valence, arousal, brightnessFactor) };
  trace.push({ source: 'arousal', effect: `reverb = ${reverb}, decay ${reverbDecay}s, delay ${delay}` });
  const lofiSource = lofiWords.length > 0 ? lofiWords.map((s) => s.phrase).join(', ') : lofiGenreWord && !preset.effects.lofi ? lofiGenreWord.phrase : preset.name;
  trace.push({ source: lofiSource, effect: `lo-fi treatment ${lofi ? 'on' : 'off'}` });
  trace.push({ source: rainWords.length > 0 ? rainWords.join(', ') : 'default', effect: `rain ${effects.rain ? 'on' : 'off'}` });
  trace.push({ source: 'valence, arousal', effect: `brightness = ${effects.brightness} Hz` });

  // Vocals (decided before the arrangement so "solo piano ... song" keeps its singer).
  const vocals = decideVocals(
    {
      requestInstrumental: request.instrumental,
      lyrics: request.lyrics,
      asked: match.content.flatMap((c) => (c.kind === 'vocal' ? [{ phrase: c.phrase, negated: c.negated }] : [])),
      noVocalWords: match.content.flatMap((c) => (c.kind === 'noVocal' ? [c.phrase] : [])),
      about: explicit.about,
      tokens,
    },
    preset,
    createRandom(request.seed, 'interpret/vocals'),
  );
  trace.push(...vocals.trace);

  // Arrangement.
  const wishes = scaled.flatMap((s) => Object.entries(s.hints.instruments ?? {}).map(([role, patch]) => ({ phrase: s.phrase, role: role as Role, patch: patch as Patch })));
  const words: InstrumentWord[] = instrumentContent.map((c) => ({ phrase: c.phrase, entry: c.entry, negated: c.negated, only: c.only }));
  // A negated sound word takes its own patch away too ("no vinyl" drops the crackle texture).
  for (const word of hintWords.filter((h) => h.negated && h.lexicon === 'production')) {
    for (const [role, patch] of Object.entries(word.hints.instruments ?? {})) {
      words.push({ phrase: `not ${word.phrase}`, entry: { patch: patch as Patch, roles: [role as Role] }, negated: true, only: false });
    }
  }
  const excludedRoles: { phrase: string; role: Role }[] = match.content.flatMap((c) => (c.kind === 'exclude' ? [{ phrase: c.phrase, role: c.role as Role }] : []));
  if (vocals.excluded) excludedRoles.push({ phrase: 'no vocals', role: 'vocal' });
  const arrangement = arrange({ preset, blend: blendPreset, wishes, words, excludedRoles, keepVocal: vocals.enabled && wantsSong });
  trace.push(...arrangement.trace);
  trace.push({ source: preset.name, effect: `instruments: ${arrangement.instruments.map((i) => `${i.role} ${i.instrument}`).join(', ')}` });
  const vocalOn = vocals.enabled && !arrangement.excluded.includes('vocal');

  // Title.
  const titleWords: TitleWord[] = [
    // Pure pace words ("slow", "fast") make weak titles.
    ...hintWords.filter((h) => !h.negated && h.lexicon !== 'production' && !(h.lexicon === 'mood' && !h.hints.valence)).map((h) => ({ phrase: h.phrase, kind: h.lexicon as 'scene' | 'mood', index: h.index })),
    ...instrumentContent.filter((c) => !c.negated && !c.entry.generic).map((c) => ({ phrase: c.phrase, kind: 'instrument' as const, index: c.index })),
  ];
  const title = makeTitle(titleWords, explicit.about, arousal, createRandom(request.seed, 'interpret/title'));
  trace.push({ source: explicit.about ? `about ${explicit.about}` : titleWords.length > 0 ? 'prompt' : 'seed', effect: `title = "${title}"` });
  trace.push({ source: preset.name, effect: `form = ${preset.form}` });

  return {
    prompt: request.prompt,
    duration: request.duration,
    seed: request.seed,
    genre: preset.name,
    blend,
    bpm,
    meter,
    swing,
    key: { tonic, mode },
    valence,
    arousal,
    density,
    form: preset.form,
    instruments: arrangement.instruments,
    excluded: arrangement.excluded,
    effects,
    vocals: { enabled: vocalOn, gender: vocals.gender },
    title,
    trace,
  };
}
