/**
 * Stage 1 of the engine: interpret(request) -> SongSpec. Pure and deterministic: the same request
 * gives a deep-equal spec, and randomness comes only from seeded streams ("interpret/key/<genre>", ...).
 *
 * Precedence: explicit values ("92 bpm", "in F# minor", "3/4") > instrument and genre words >
 * scene words > mood words > genre defaults. `request.style` sets the genre outright.
 * Every value set is explained in `trace`.
 */
import { defined } from '../checked.ts';
import { resolvePlan } from './plan.ts';
import { getPreset, presetNames } from '../presets.ts';
import { createRandom } from '../random.ts';
import { getLexicon, type Lexicon } from '../lexicon/index.ts';
import type {
  Articulation,
  GenerationRequest,
  Mode,
  Patch,
  PitchClass,
  Preset,
  Role,
  SongSpec,
  Subjects,
  TraceEntry,
} from '../types.ts';
import { extractExplicit, type Explicit } from './explicit.ts';
import { applyFields } from './fields.ts';
import { energyArousal, fieldInstruments } from './field-arrangement.ts';
import { METERS, meterName, pulseBpm, unitBpm, unitsPerPulse } from '../compose/meter.ts';
import { asLoop } from './loop.ts';
import { chooseGenre } from './genre.ts';
import { collectHints, describeHints, type HintSet } from './hints.ts';
import { ACOUSTIC_WORDS, arrange, BALLAD_WORDS, type InstrumentWord } from './instruments.ts';
import { withTimekeeper } from './timekeeper.ts';
import { matchPrompt, saidAs, type Content, type MatchResult } from './match.ts';
import { readArticulations } from './articulation.ts';
import { setRecordingAside } from './recording.ts';
import { paceBpm, paceWordsOf } from './tempo.ts';
import { readVoice, type VoiceReading } from './voice.ts';
import {
  bpmFromArousal,
  brightnessFrom,
  clamp,
  densityFromArousal,
  modeFromValence,
  reverbFrom,
  round2,
} from './mood.ts';
import { extractSubjects } from './subjects.ts';
import { writtenSongTitle } from '../lyrics/index.ts';
import { makeTitle, type TitleWord } from './title.ts';
import { BOUNDARY, joinLabels, tokenize } from './tokenize.ts';
import { translatePrompt, type Translation } from './translate.ts';
import { decideVocals } from './vocals.ts';
import { genreWarnings, instrumentWarnings, unplayableWarnings } from './warnings.ts';

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

/** What every resolver step reads. */
interface Context {
  request: GenerationRequest;
  /** What the prompt states outright, with the request's musical fields laid over it. */
  explicit: Explicit;
  /** Whether the prompt itself states any value (the fields say nothing about the prompt's words). */
  promptExplicit: boolean;
  lexicon: Lexicon;
  tokens: string[];
  match: MatchResult;
  hints: HintSet;
  /** A singer was asked for in so many words, by a topic ("about ...") or by lyrics. */
  wantsSong: boolean;
  /** How the prompt describes the voice. */
  voice: VoiceReading;
  /** The words of "a cappella" and of "no other instrument", when the prompt has them. */
  voicesOnly: string | null;
  exclusive: string | null;
  /** Ways of playing named for bowed instruments ("the cello plays pizzicato"). */
  ways: ReadonlyMap<Patch, Articulation>;
  /** The tempo range of a dance the genre word names ("tarantella"), set with the genre. */
  danceRange: { phrase: string; min: number; max: number } | null;
  trace: TraceEntry[];
  warnings: string[];
}

type Kind<K extends Content['kind']> = Extract<Content, { kind: K }>;
const ofKind = <K extends Content['kind']>(content: readonly Content[], kind: K): Kind<K>[] =>
  content.filter((c): c is Kind<K> => c.kind === kind);
const explicitSource = (explicit: Explicit, ...kinds: Explicit['found'][number]['kind'][]) =>
  explicit.found.find((f) => kinds.includes(f.kind))?.source;

function resolveGenre(ctx: Context): { preset: Preset; blendPreset: Preset | null; blend: SongSpec['blend'] } {
  const { request, match, trace } = ctx;
  for (const c of ofKind(match.content, 'genre')) {
    if (c.negated) trace.push({ source: `not ${c.phrase}`, effect: `genre ${c.entry.genre} ruled out` });
  }
  const custom = request.customStyle;
  if (custom) {
    trace.push({
      source: 'style',
      effect: `genre = ${custom.base} (the custom style ${custom.name}, made from ${custom.base})`,
    });
    return { preset: custom.preset, blendPreset: null, blend: null };
  }
  if (request.style) {
    const preset = getPreset(request.style);
    trace.push({ source: 'style', effect: `genre = ${preset.name} (style preset)` });
    return { preset, blendPreset: null, blend: null };
  }
  const recognised = match.recognised > 0 || ctx.promptExplicit;
  const choice = chooseGenre(
    match.content,
    ctx.hints.sum('arousal'),
    recognised,
    ctx.wantsSong,
    (g) => getPreset(g).vocal,
    createRandom(request.seed, 'interpret/genre'),
  );
  const preset = getPreset(choice.genre);
  trace.push({ source: choice.source, effect: `genre = ${preset.name} (${choice.why})` });
  for (const setting of choice.settings) {
    trace.push({ source: setting, effect: `a setting, not a genre: the stated ${preset.name} wins` });
  }
  ctx.danceRange = choice.dance;
  ctx.warnings.push(
    ...genreWarnings(ofKind(match.content, 'genre'), [preset.name, ...(choice.blend ? [choice.blend.genre] : [])]),
  );
  if (!choice.blend) return { preset, blendPreset: null, blend: null };
  trace.push({ source: choice.blend.genre, effect: `blend ${choice.blend.genre} at weight ${choice.blend.weight}` });
  return { preset, blendPreset: getPreset(choice.blend.genre), blend: choice.blend };
}

/** The genre's prior plus every word, clamped to [-1, 1] (section 2.3). */
function resolveMood(
  ctx: Context,
  preset: Preset,
  blendPreset: Preset | null,
  weight: number,
): { valence: number; arousal: number } {
  const mix = (a: number, b: number | undefined) => (b === undefined ? a : a * (1 - weight) + b * weight);
  const priorValence = round2(mix(preset.valence, blendPreset?.valence));
  const priorArousal = round2(mix(preset.arousal, blendPreset?.arousal));
  ctx.trace.push({ source: preset.name, effect: `prior valence ${priorValence}, arousal ${priorArousal}` });
  for (const word of ctx.hints.words) ctx.trace.push({ source: word.phrase, effect: describeHints(word.hints) });
  const valence = round2(clamp(priorValence + ctx.hints.sum('valence'), -1, 1));
  const worded = round2(clamp(priorArousal + ctx.hints.sum('arousal'), -1, 1));
  const arousal = energyArousal(ctx.request.music?.energy, worded, ctx.hints.words, ctx.trace, ctx.warnings);
  ctx.trace.push({ source: 'mood', effect: `valence = ${valence}, arousal = ${arousal}` });
  return { valence, arousal };
}

/** A dance's own tempo range (pulses a minute) in the style's beat units, its middle as the default. */
function danceUnits(range: { min: number; max: number }, preset: Preset): Preset['bpm'] {
  const min = Math.round(unitBpm(range.min, preset.meter));
  const max = Math.round(unitBpm(range.max, preset.meter));
  return { min, max, default: Math.round((min + max) / 2) };
}

function resolveTime(ctx: Context, preset: Preset, arousal: number): Pick<SongSpec, 'bpm' | 'meter' | 'swing'> {
  const { explicit, trace } = ctx;
  const custom = ctx.request.customStyle;
  const meter = explicit.meter ?? (custom?.meter ? { ...custom.meter } : { ...preset.meter });
  const meterSource = explicitSource(explicit, 'meter');
  const meterWhy = meterSource ? 'explicit' : custom?.meter ? `the style ${custom.name}` : 'genre';
  trace.push({
    source: meterSource ?? preset.name,
    effect: `meter = ${meter.beatsPerBar}/${meter.beatUnit} (${meterWhy})`,
  });
  const named = meterName(meter);
  if (named !== meterName(preset.meter) && !(METERS as readonly string[]).includes(named)) {
    ctx.warnings.push(
      `"${meterSource}" has no grooves of its own: ${preset.name}'s ${meterName(preset.meter)} groove is stretched over its bar. Meters with grooves of their own: ${METERS.join(', ')}.`,
    );
  }

  let bpm: number;
  const pace = paceWordsOf(ctx.match.content);
  if (explicit.bpm !== null) {
    // An explicit tempo counts the pulse a listener taps (dotted quarters in 6/8); the spec counts beat units.
    bpm = unitBpm(explicit.bpm, meter);
    const clamped = explicit.bpmWritten !== explicit.bpm ? `, clamped from ${explicit.bpmWritten}` : '';
    const perPulse = bpm !== explicit.bpm ? ` (${bpm} ${meter.beatUnit === 8 ? 'eighths' : 'beats'} a minute)` : '';
    const source = defined(explicitSource(explicit, 'bpm'), 'the words that gave the bpm');
    trace.push({ source, effect: `bpm = ${explicit.bpm}${perPulse} (explicit${clamped})` });
    const pulse = explicit.bpm;
    const contradicted = pace.find(
      (p) => (p.direction === -1 && pulse > SLOW_ABOVE) || (p.direction === 1 && pulse < FAST_BELOW),
    );
    if (contradicted) {
      ctx.warnings.push(`"${contradicted.phrase}" contradicts "${source}": the explicit ${pulse} bpm was kept.`);
      trace.push({ source: contradicted.phrase, effect: `ignored: the explicit ${pulse} bpm wins` });
    }
  } else {
    const range = ctx.danceRange ? danceUnits(ctx.danceRange, preset) : preset.bpm;
    const jitter = createRandom(ctx.request.seed, 'interpret/tempo').range(-2, 2);
    const paced = paceBpm(pace, preset, range, ctx.lexicon.statements.paces, jitter);
    const within = `${preset.name}'s ${range.min}–${range.max}${ctx.danceRange ? ` (${ctx.danceRange.phrase}'s own)` : ''}`;
    if (paced && !('conflict' in paced)) {
      bpm = paced.bpm;
      trace.push({
        source: pace.map((p) => p.phrase).join(', '),
        effect: `bpm = ${bpm} (${paced.why}, within ${within}; over mood and scene words)`,
      });
    } else {
      if (paced) {
        ctx.warnings.push(
          `The prompt asks for both slow and fast (${pace.map((p) => `"${p.phrase}"`).join(', ')}): the tempo follows the mood instead.`,
        );
      }
      bpm = bpmFromArousal({ ...preset, bpm: range }, arousal, preset.arousal, ctx.hints.sum('tempo'), jitter);
      trace.push({ source: 'arousal', effect: `bpm = ${bpm} (${within}, arousal ${arousal})` });
    }
  }
  if (
    explicit.bpm === null &&
    (meter.beatsPerBar !== preset.meter.beatsPerBar || meter.beatUnit !== preset.meter.beatUnit)
  ) {
    // The genre's tempo is kept as a pulse across meters: a 100 bpm folk tune in 6/8 has 100 dotted quarters.
    const converted = Math.round(unitBpm(pulseBpm(bpm, preset.meter), meter));
    if (converted !== bpm)
      trace.push({
        source: 'meter',
        effect: `bpm = ${converted} beat units a minute (the genre's pulse in ${meter.beatsPerBar}/${meter.beatUnit})`,
      });
    bpm = converted;
  }
  // A compound meter already divides its pulse in three: swinging its eighths would pair them into quarters.
  const compound = unitsPerPulse(meter) === 3;
  const swing = compound ? 0 : round2(clamp(preset.swing + ctx.hints.sum('swing'), 0, 1));
  trace.push({
    source: compound ? 'meter' : preset.name,
    effect: `swing = ${swing}${compound ? ` (${meter.beatsPerBar}/${meter.beatUnit} is in threes)` : ''}`,
  });
  return { bpm, meter, swing };
}

/** An explicit bpm above this is not slow, and one below FAST_BELOW is not fast. */
const SLOW_ABOVE = 110;
const FAST_BELOW = 90;

function resolveKey(ctx: Context, preset: Preset, blendPreset: Preset | null, valence: number): SongSpec['key'] {
  const { explicit, trace } = ctx;
  // Drawn whether or not the prompt names a tonic, so wording never shifts other streams.
  const seededTonic = createRandom(ctx.request.seed, `interpret/key/${preset.name}`).pick(
    TONICS_BY_GENRE[preset.name] ?? ALL_TONICS,
  );
  // A style's key is one preference: a prompt naming either half of a key plays its own.
  const preferred = explicit.mode ? undefined : ctx.request.customStyle?.tonic;
  const tonic = explicit.tonic ?? preferred ?? seededTonic;
  let mode: Mode;
  const custom = ctx.request.customStyle;
  if (explicit.mode) {
    mode = explicit.mode;
  } else if (custom?.mode && !explicit.tonic) {
    mode = custom.mode;
    trace.push({ source: 'style', effect: `mode = ${mode} (the key of the style ${custom.name})` });
  } else {
    const modes = blendPreset ? [...preset.modes, ...blendPreset.modes] : preset.modes;
    const chosen = modeFromValence(valence, modes, ctx.hints.mode() ?? null);
    mode = chosen.mode;
    trace.push({ source: 'valence', effect: `mode = ${mode} (${chosen.why})` });
  }
  const tonicWhy = explicit.tonic
    ? 'explicit tonic'
    : preferred
      ? `the key of the style ${ctx.request.customStyle?.name}`
      : `tonic chosen by seed for ${preset.name}`;
  const why = `${tonicWhy}${explicit.mode ? ', explicit mode' : ''}`;
  trace.push({ source: explicitSource(explicit, 'key', 'mode') ?? 'seed', effect: `key = ${tonic} ${mode} (${why})` });
  return { tonic, mode };
}

function resolveSound(
  ctx: Context,
  preset: Preset,
  blendPreset: Preset | null,
  valence: number,
  arousal: number,
): Pick<SongSpec, 'density' | 'effects'> {
  const { hints, trace } = ctx;
  const density = densityFromArousal(arousal, hints.sum('density'));
  trace.push({ source: 'arousal', effect: `density = ${density}` });

  const { reverb, reverbDecay } = reverbFrom(preset, arousal, hints.sum('reverb'), hints.sum('reverbDecay'));
  const delay = round2(clamp(preset.effects.delay + hints.sum('delay'), 0, 1));
  trace.push({ source: 'arousal', effect: `reverb = ${reverb}, decay ${reverbDecay}s, delay ${delay}` });

  const lofiWords = hints.where((h) => h.lofi !== undefined);
  // A lo-fi genre word keeps its sound even when a style or another genre wins ("lo-fi" with style jazz).
  const lofiGenreWord = ofKind(ctx.match.content, 'genre').find(
    (c) => !c.negated && getPreset(c.entry.genre).effects.lofi,
  );
  const lofi =
    lofiWords.at(-1)?.hints.lofi ??
    (preset.effects.lofi || (blendPreset?.effects.lofi ?? false) || lofiGenreWord !== undefined);
  const lofiSource =
    lofiWords.length > 0
      ? lofiWords.map((w) => w.phrase).join(', ')
      : lofiGenreWord && !preset.effects.lofi
        ? lofiGenreWord.phrase
        : preset.name;
  trace.push({ source: lofiSource, effect: `lo-fi treatment ${lofi ? 'on' : 'off'}` });

  const rainWords = hints.where((h) => h.rain).map((w) => w.phrase);
  trace.push({
    source: rainWords.length > 0 ? rainWords.join(', ') : 'default',
    effect: `rain ${rainWords.length > 0 ? 'on' : 'off'}`,
  });

  const brightness = brightnessFrom(preset, valence, arousal, hints.brightness());
  trace.push({ source: 'valence, arousal', effect: `brightness = ${brightness} Hz` });
  return { density, effects: { reverb, reverbDecay, delay, lofi, rain: rainWords.length > 0, brightness } };
}

function resolveArrangement(
  ctx: Context,
  preset: Preset,
  blendPreset: Preset | null,
): Pick<SongSpec, 'instruments' | 'excluded' | 'vocals' | 'articulations'> {
  const { match, trace } = ctx;
  const vocals = decideVocals(
    {
      requestInstrumental: ctx.request.instrumental,
      lyrics: ctx.request.lyrics,
      asked: ofKind(match.content, 'vocal').map((c) => ({ phrase: saidAs(c), negated: c.negated })),
      noVocalWords: ofKind(match.content, 'noVocal').map((c) => c.phrase),
      about: ctx.explicit.about,
      tokens: ctx.tokens,
      voicesOnly: ctx.voicesOnly,
      voice: ctx.voice,
      words: ctx.lexicon.voices,
      lineup: [
        ...new Set(
          ofKind(match.content, 'instrument')
            .filter((c) => !c.negated)
            .map((c) => c.phrase),
        ),
      ],
    },
    preset,
    createRandom(ctx.request.seed, 'interpret/vocals'),
  );
  trace.push(...vocals.trace);
  ctx.warnings.push(...vocals.warnings);

  // A genre stated outright, not a setting that only suggests one ("a jazz bar").
  const genreNamed =
    ctx.request.style !== null ||
    ctx.request.customStyle !== undefined ||
    ofKind(match.content, 'genre').some((c) => !c.negated && c.entry.setting !== true);
  const wishes = sceneWishes(ctx, preset, genreNamed);
  const promptWords: InstrumentWord[] = ofKind(match.content, 'instrument').map((c) => ({
    phrase: c.phrase,
    ...(c.negated ? { said: saidAs(c) } : {}),
    entry: c.entry,
    negated: c.negated,
    only: c.only,
    lead: c.lead,
    ...(c.onlyBy ? { onlyBy: c.onlyBy } : {}),
  }));
  // A negated sound word takes its own patch away too ("no vinyl" drops the crackle texture).
  for (const c of ofKind(match.content, 'hint')) {
    if (!c.negated || c.lexicon !== 'production') continue;
    for (const [role, patch] of Object.entries(c.hints.instruments ?? {})) {
      promptWords.push({
        phrase: `not ${c.phrase}`,
        entry: { patch: patch as Patch, roles: [role as Role] },
        negated: true,
        only: false,
        lead: false,
      });
    }
  }
  const promptExcluded = ofKind(match.content, 'exclude').map((c) => ({ phrase: c.phrase, role: c.role as Role }));
  if (vocals.excluded) promptExcluded.push({ phrase: 'no vocals', role: 'vocal' });
  const fields = fieldInstruments(
    ctx.request.music,
    ctx.lexicon,
    { words: promptWords, excludedRoles: promptExcluded },
    ctx.warnings,
  );
  const { words, excludedRoles } = fields;
  if (vocals.enabled && ctx.wantsSong && fields.vocalsExcluded) {
    ctx.warnings.push('The prompt asks for a singer but the "exclude" field leaves out the vocals: the field wins.');
  }
  // "solo piano" keeps a singer only when one was asked for.
  // "acoustic" inside an instrument's name ("house with acoustic guitar") asks for that instrument, not an acoustic arrangement.
  const named = new Set(
    ofKind(match.content, 'instrument').flatMap((c) => c.phrase.split(' ').map((_, k) => c.index + k)),
  );
  const acousticCues = ctx.tokens.filter((t, i) => !named.has(i) && (ACOUSTIC_WORDS.has(t) || BALLAD_WORDS.has(t)));
  const arrangement = arrange({
    preset,
    blend: blendPreset,
    wishes,
    words,
    excludedRoles,
    keepVocal: vocals.enabled && (ctx.wantsSong || match.onlyVocal),
    acousticCues,
    genreNamed,
    voicesOnly: vocals.enabled ? ctx.voicesOnly : null,
    exclusive: ctx.exclusive,
    hum: vocals.hum,
    sung: vocals.enabled,
  });
  trace.push(...arrangement.trace);
  trace.push({
    source: preset.name,
    effect: `instruments: ${arrangement.instruments.map((i) => `${i.role} ${i.instrument}`).join(', ')}`,
  });
  // Instruments the fields asked for are reported like named ones when the arrangement could not keep them.
  ctx.warnings.push(...instrumentWarnings(fields.asked, arrangement.instruments));
  const articulations = Object.fromEntries(
    arrangement.instruments.flatMap((i) => {
      const way = ctx.ways.get(i.instrument as Patch);
      return way ? [[i.role, way]] : [];
    }),
  );
  return {
    instruments: arrangement.instruments,
    excluded: arrangement.excluded,
    ...(Object.keys(articulations).length > 0 ? { articulations } : {}),
    vocals: {
      enabled: vocals.enabled && !arrangement.excluded.includes('vocal'),
      gender: vocals.gender,
      ...vocals.described,
    },
  };
}

/**
 * Instruments the scene words wish for (a church's organ and choir, the ocean's waves). A genre stated outright
 * plays its own instruments in a setting, a place the music is played in: the setting lends its instruments only to
 * a genre it suggests itself ("a techno track played in a church" gets no organ; "pop by the ocean" keeps its waves).
 */
function sceneWishes(
  ctx: Context,
  preset: Preset,
  genreNamed: boolean,
): { phrase: string; role: Role; patch: Patch }[] {
  return ctx.hints.words.flatMap((w) => {
    const wished = Object.entries(w.hints.instruments ?? {});
    if (wished.length === 0) return [];
    if (genreNamed && w.hints.setting === true && !(preset.name in (w.hints.genres ?? {}))) {
      ctx.trace.push({ source: w.phrase, effect: `a setting: the stated ${preset.name} plays its own instruments` });
      return [];
    }
    return wished.map(([role, patch]) => ({ phrase: w.phrase, role: role as Role, patch: patch as Patch }));
  });
}

function resolveTitle(ctx: Context, arousal: number, subjects: Subjects): string {
  const words: TitleWord[] = [];
  for (const c of ctx.match.content) {
    if (c.kind === 'hint' && !c.negated && c.lexicon !== 'production') {
      // Pure pace words ("slow", "fast") make weak titles.
      if (c.lexicon === 'mood' && !c.hints.valence) continue;
      words.push({ phrase: c.phrase, kind: c.lexicon, index: c.index });
    } else if (c.kind === 'instrument' && !c.negated && !c.entry.generic) {
      words.push({ phrase: c.phrase, kind: 'instrument', index: c.index });
    }
  }
  const title = makeTitle(
    words,
    ctx.explicit.about,
    arousal,
    createRandom(ctx.request.seed, 'interpret/title'),
    subjects,
  );
  const named = subjects.names.length > 0 || subjects.places.length > 0;
  const source = ctx.explicit.about
    ? `about ${ctx.explicit.about}`
    : named
      ? 'subjects'
      : words.length > 0
        ? 'prompt'
        : 'seed';
  ctx.trace.push({ source, effect: `title = "${title}"` });
  return title;
}

export function interpret(
  request: GenerationRequest,
  lexicon: Lexicon = getLexicon(() => presetNames().map(getPreset)),
): SongSpec {
  const spec = interpretTrack(request, lexicon);
  return request.loop === true ? asLoop(spec) : spec;
}

function interpretTrack(request: GenerationRequest, lexicon: Lexicon): SongSpec {
  const trace: TraceEntry[] = [];
  const warnings: string[] = [];
  const known = (word: string): boolean => isLexiconWord(lexicon, word);
  const translation = translatePrompt(request.prompt, lexicon.languages, (text) => recognisedWords(text, lexicon));
  traceLanguage(translation, lexicon, trace, warnings);
  const said = extractExplicit(translation.text);
  const explicit = applyFields(said, request.music, warnings);
  const tokens = joinLabels(tokenize(explicit.rest), lexicon.statements.labels);
  const matched = matchPrompt(tokens, lexicon);
  const aside = setRecordingAside(tokens, matched.content, lexicon.statements.recordingSubjects, trace);
  const articulated = readArticulations(tokens, aside, trace);
  const match = { ...matched, content: articulated.content };
  const unplayable = unplayableWarnings(tokens, lexicon.unplayable, trace);
  if (match.recognised === 0 && said.found.length === 0) {
    trace.push({ source: 'default', effect: 'no recognised words: defaults' });
    const what = unplayable.length > 0 ? 'Nothing else in the prompt' : 'Nothing in the prompt';
    if (translation.unsupported === null)
      warnings.push(
        `${what} was recognised: the genre, tempo, key and instruments are defaults, not a reading of the prompt.`,
      );
  }
  warnings.push(...unplayable);
  const hints = collectHints(match.content, trace, lexicon.statements.paces);
  const voicesOnly =
    ofKind(match.content, 'voicesOnly')
      .map((c) => c.phrase)
      .join(', ') || null;
  const wantsSong =
    ofKind(match.content, 'vocal').some((c) => !c.negated) ||
    voicesOnly !== null ||
    explicit.about !== null ||
    Boolean(request.lyrics?.trim()) ||
    Boolean(request.plan?.some((section) => section.lyrics?.trim()));
  const ctx: Context = {
    request,
    explicit,
    promptExplicit: said.found.length > 0,
    lexicon,
    tokens,
    match,
    hints,
    wantsSong,
    voice: readVoice(tokens, match.content, lexicon.voices, voicesOnly !== null),
    voicesOnly,
    exclusive: ofKind(match.content, 'exclusive')[0]?.phrase ?? null,
    ways: articulated.ways,
    danceRange: null,
    trace,
    warnings,
  };

  const { preset, blendPreset, blend } = resolveGenre(ctx);
  const { valence, arousal } = resolveMood(ctx, preset, blendPreset, blend?.weight ?? 0);
  const time = resolveTime(ctx, preset, arousal);
  const key = resolveKey(ctx, preset, blendPreset, valence);
  const sound = resolveSound(ctx, preset, blendPreset, valence, arousal);
  const arranged = resolveArrangement(ctx, preset, blendPreset);
  const arrangement = {
    ...arranged,
    instruments: withTimekeeper(arranged.instruments, arranged.excluded, preset, request.music?.bpm, trace),
  };
  warnings.push(...instrumentWarnings(ofKind(match.content, 'instrument'), arrangement.instruments));
  const subjects = extractSubjects(explicit.rest.replace(/\s*\|\s*/g, ', '), known, explicit.about);
  if (subjects.names.length > 0 || subjects.occasion || subjects.places.length > 0 || subjects.relation) {
    trace.push({ source: 'subjects', effect: describeSubjects(subjects) });
  }
  const givenLyrics = typeof request.lyrics === 'string' && request.lyrics.trim() !== '' ? request.lyrics : null;
  const hasLyrics = givenLyrics !== null;
  if (arrangement.vocals.enabled && !hasLyrics && translation.language !== 'en') {
    trace.push({ source: 'language', effect: `lyrics are written in English (the prompt is in ${translation.name})` });
    warnings.push(
      `The lyrics are written in English: the engine does not write lyrics in ${translation.name}. Give your own lyrics to choose the words.`,
    );
  }
  // A song whose lyrics the engine writes is titled as its hook will sing it.
  const written =
    arrangement.vocals.enabled && !hasLyrics && !wantsPlanLyrics(request)
      ? writtenSongTitle(translation.text, valence, arousal, subjects, createRandom(request.seed, 'lyrics/title'))
      : null;
  if (written !== null)
    trace.push({ source: 'lyrics', effect: `title = "${written}" (the hook of the written lyrics)` });
  const title = written ?? resolveTitle(ctx, arousal, subjects);
  trace.push({ source: preset.name, effect: `form = ${preset.form}` });
  const planned =
    request.plan === undefined
      ? undefined
      : resolvePlan(
          request.plan,
          {
            bpm: time.bpm,
            beatsPerBar: time.meter.beatsPerBar,
            instruments: arrangement.instruments,
            duration: request.duration,
          },
          lexicon,
          warnings,
        );
  if (planned)
    trace.push({
      source: 'sections',
      effect: `form = the plan's ${planned.plan.length} sections, ${planned.plan.reduce((n, s) => n + s.bars, 0)} bars`,
    });
  if (planned?.sizing) trace.push({ source: 'sections', effect: planned.sizing });

  return {
    prompt: request.prompt,
    duration: planned?.duration ?? request.duration,
    seed: request.seed,
    genre: preset.name,
    ...(request.customStyle ? { preset: request.customStyle.preset } : {}),
    blend,
    ...time,
    key,
    valence,
    arousal,
    ...sound,
    form: preset.form,
    ...arrangement,
    lyrics: givenLyrics,
    title,
    trace,
    warnings,
    subjects,
    ...(translation.language !== 'en' ? { englishPrompt: translation.text } : {}),
    ...(planned ? { plan: planned.plan } : {}),
  };
}

/** A plan whose sections carry their own words: the engine writes no lyrics for it. */
const wantsPlanLyrics = (request: GenerationRequest): boolean =>
  request.plan?.some((section) => Boolean(section.lyrics?.trim())) === true;

/** The prompt's words the English lexicon recognises, for language detection. */
function recognisedWords(text: string, lexicon: Lexicon): string[] {
  const tokens = tokenize(text).filter((t) => t !== BOUNDARY);
  const unknown = matchPrompt(tokens, lexicon).unknown;
  const left = [...unknown];
  return tokens.filter((t) => {
    const k = left.indexOf(t);
    if (k < 0) return true;
    left.splice(k, 1);
    return false;
  });
}

/** A word (or phrase) some English lexicon knows. */
function isLexiconWord(lexicon: Lexicon, word: string): boolean {
  return (
    lexicon.moods.has(word) ||
    lexicon.scenes.has(word) ||
    lexicon.production.has(word) ||
    lexicon.instruments.has(word) ||
    lexicon.genres.has(word) ||
    lexicon.intensifiers.has(word) ||
    lexicon.negators.has(word)
  );
}

function traceLanguage(translation: Translation, lexicon: Lexicon, trace: TraceEntry[], warnings: string[]): void {
  if (translation.unsupported !== null) {
    const readable = ['English', ...lexicon.languages.map((l) => l.name)].join(', ');
    trace.push({
      source: 'language',
      effect: `unsupported: the prompt is written in ${translation.unsupported} script`,
    });
    warnings.push(
      `The prompt is written in ${translation.unsupported} script, which the engine does not read (it reads ${readable}): the music is not a reading of it.`,
    );
    return;
  }
  if (translation.language === 'en') {
    trace.push({ source: 'language', effect: 'English' });
    return;
  }
  const shown = translation.replaced
    .slice(0, 12)
    .map((r) => `${r.source} → ${r.english}`)
    .join('; ');
  trace.push({
    source: 'language',
    effect: `${translation.name} (${translation.language}): ${translation.replaced.length} phrase${translation.replaced.length === 1 ? '' : 's'} read as English (${shown})`,
  });
  trace.push({ source: translation.language, effect: `read as "${translation.text.replace(/\s+/g, ' ').trim()}"` });
}

function describeSubjects(subjects: Subjects): string {
  const parts: string[] = [];
  if (subjects.names.length > 0) parts.push(`for ${subjects.names.join(', ')}`);
  else if (subjects.relation) parts.push(`for ${subjects.relation}`);
  if (subjects.occasion) parts.push(`occasion ${subjects.occasion}`);
  if (subjects.places.length > 0) parts.push(`place ${subjects.places.join(', ')}`);
  return `lyrics and title mention: ${parts.join('; ')}`;
}
