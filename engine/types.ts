/**
 * The engine's data model: the contract between its four stages.
 *
 *   interpret(request) -> SongSpec      (engine/interpret/)
 *   compose(spec)      -> Score         (engine/compose/)
 *   render(score)      -> AudioBuffers  (engine/render/, inside a worker)
 *   encode(audio)      -> WAV + MIDI    (engine/encode/)
 *
 * Everything here is plain data (structured-clone safe) so it can cross the worker boundary.
 */

/** What a caller asks for. `seed` is always resolved before the engine sees the request. */
export interface GenerationRequest {
  prompt: string;
  /** Seconds, 30–180 at the API; the engine accepts 1–600 so tests can render short clips. */
  duration: number;
  /** A preset name from presets/ (see listStyles()), or null to infer the genre from the prompt. */
  style: string | null;
  instrumental: boolean;
  /** Integer 0–2147483647; the same request and seed give a byte-identical WAV. */
  seed: number;
  lyrics?: string | null;
  /**
   * A seamless loop: a whole number of bars (the duration is moved to the nearest bar), no intro or ending, and
   * what rings past the end carried round onto the start. Absent: an ordinary track.
   */
  loop?: boolean;
  /** Also render one WAV per role (RenderedTrack.stems). Absent: the mix only. */
  stems?: boolean;
  /** Which files to make beyond the 16-bit 44.1 kHz WAV and the MIDI, and how. Absent: just those two. */
  output?: OutputOptions;
  /** Musical values the caller set outright; each wins over what the prompt says (engine/interpret/fields.ts). */
  music?: MusicalFields;
  /**
   * A composition plan: these sections in this order, each exactly its bars (seconds become the nearest whole
   * number of bars at the track's tempo). The track's length is then the plan's, not `duration`, unless some
   * sections give no length: those share what `duration` leaves, in whole bars.
   */
  plan?: PlanSection[];
  /**
   * A custom style (engine/custom-style.ts): its preset is played in place of presets/<base>.json, and its tonic
   * and meter are preferred where the prompt and the musical fields name none. `style` is then not read.
   */
  customStyle?: CustomStyle;
}

/** A built-in style with some of its choices changed, made by makeCustomStyle. */
export interface CustomStyle {
  name: string;
  /** The built-in style it was made from: the genre the engine plays, with `preset` in place of its file. */
  base: string;
  preset: Preset;
  /** The key the style prefers (its `key`): played unless the prompt or the `key` field names a tonic or a mode. */
  tonic?: PitchClass;
  mode?: Mode;
  /** The meter the style prefers, unless the prompt or the `time_signature` field names one. */
  meter?: { beatsPerBar: number; beatUnit: number };
}

/** The section kinds a plan may name (the API's words, as responses spell them in `sections`, `plan` and lyrics). */
export const PLAN_KINDS = [
  'intro',
  'verse',
  'prechorus',
  'chorus',
  'bridge',
  'drop',
  'breakdown',
  'solo',
  'outro',
] as const;
export type PlanKind = (typeof PLAN_KINDS)[number];

/**
 * Other words a plan may use for a kind, read as the kind (issue 26): `pre_chorus`, the plan's spelling before
 * responses and requests agreed on one, and the engine's own kinds a generation's `sections` reports, so sending
 * them back is a plan (a build leads in as a pre-chorus does, a theme is a verse, a climax a chorus).
 */
export const PLAN_KIND_ALIASES = {
  pre_chorus: 'prechorus',
  build: 'prechorus',
  theme: 'verse',
  climax: 'chorus',
} as const satisfies Record<string, PlanKind>;
export type PlanKindAlias = keyof typeof PLAN_KIND_ALIASES;

/** A plan kind in its one spelling, or undefined when the word is no kind. */
export function planKindOf(word: string): PlanKind | undefined {
  if ((PLAN_KINDS as readonly string[]).includes(word)) return word as PlanKind;
  return Object.hasOwn(PLAN_KIND_ALIASES, word) ? PLAN_KIND_ALIASES[word as PlanKindAlias] : undefined;
}

/** One section of a composition plan, as a caller writes it. */
export interface PlanSection {
  /** An alias is read as its kind: records stored before issue 26 say `pre_chorus`. */
  kind: PlanKind | PlanKindAlias;
  bars?: number;
  seconds?: number;
  /** 0–1: how full and loud; absent: the kind's usual energy. */
  energy?: number;
  /** Role words ("drums", "bass") or instrument words ("piano"): only the roles they name play here. Absent: the kind's usual roles. */
  instruments?: string[];
  /** Words sung in this section (one line per line). When any section has lyrics, only those sections are sung. */
  lyrics?: string;
}

/** A plan section as the engine will play it: whole bars, an energy and the roles that play. */
export interface ResolvedPlanSection {
  kind: PlanKind;
  bars: number;
  energy: number;
  /** The roles that play (the caller's instrument words resolved to roles); null: the kind's usual roles. */
  roles: Role[] | null;
  lyrics: string | null;
}

/** A section of the plan used, in the shape `sections` takes (start and end are read-only facts, in seconds). */
export interface PlanReport {
  kind: PlanKind;
  bars: number;
  energy: number;
  instruments: string[];
  start: number;
  end: number;
  /** The words asked for this section, when given. */
  lyrics?: string;
}

/** The encoded formats a track can be offered in beyond WAV and MIDI (lrc and vtt only for sung tracks). */
export const OUTPUT_FORMATS = ['mp3', 'opus', 'flac', 'lrc', 'vtt'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface OutputOptions {
  /** Sample rate of the WAV and the FLAC (the engine renders at 44.1 kHz; 48 kHz is resampled). @default 44100 */
  sampleRate?: 44100 | 48000;
  /** Bits per sample of the WAV and the FLAC. @default 16 */
  bitDepth?: 16 | 24;
  /** A constant MP3 bitrate in kbps; absent: LAME VBR -V2 (about 190 kbps). */
  mp3Bitrate?: 96 | 128 | 160 | 192 | 256 | 320;
  /** The formats to make. @default [] */
  formats?: OutputFormat[];
}

/**
 * Exact musical controls. `bpm` counts the meter's pulse: quarter notes in x/4 and 7/8, dotted quarters in
 * 6/8 and 12/8 (SongSpec.bpm counts the meter's beat unit instead; engine/compose/meter.ts converts).
 */
export interface MusicalFields {
  bpm?: number;
  /** "F# minor", "Bb major", "D dorian", "A harmonic minor". */
  key?: string;
  /** One of METERS ("3/4", "6/8", ...). */
  timeSignature?: string;
  /** Instrument words the engine plays ("piano", "acoustic guitar"): each joins the arrangement. */
  instruments?: string[];
  /** Roles ("drums", "vocals") or instrument words left out. */
  exclude?: string[];
  /** 0 calm … 1 intense: sets the arousal the mood words would otherwise set. */
  energy?: number;
}

export type PitchClass = 'C' | 'C#' | 'D' | 'Eb' | 'E' | 'F' | 'F#' | 'G' | 'Ab' | 'A' | 'Bb' | 'B';

export const MODES = ['major', 'minor', 'dorian', 'mixolydian', 'lydian', 'phrygian', 'harmonicMinor'] as const;
export type Mode = (typeof MODES)[number];

/** Musical jobs in an arrangement. Each maps to at most one instrument patch. */
export const ROLES = ['drums', 'bass', 'chords', 'pad', 'lead', 'arp', 'texture', 'vocal'] as const;
export type Role = (typeof ROLES)[number];

export const FORM_KINDS = ['song', 'electronic', 'ambient', 'orchestral', 'loop'] as const;
export type FormKind = (typeof FORM_KINDS)[number];

export type SectionKind =
  | 'intro'
  | 'verse'
  | 'prechorus'
  | 'chorus'
  | 'bridge'
  | 'build'
  | 'drop'
  | 'breakdown'
  | 'theme'
  | 'climax'
  | 'outro';

/** One line of the "why" behind a SongSpec: which words set which values. */
export interface TraceEntry {
  /** The prompt words (or "style", "default", "seed") that caused it. */
  source: string;
  /** A short human sentence: "bpm = 80 (explicit)". */
  effect: string;
}

export interface InstrumentChoice {
  role: Role;
  /** A patch name known to engine/render/instruments (e.g. "rhodes", "piano", "sawLead", "strings"). */
  instrument: string;
}

export interface SongSpec {
  /** The original request, kept so every later stage is a pure function of the spec. */
  prompt: string;
  duration: number;
  seed: number;
  /** The preset/genre name (a key of presets/). */
  genre: string;
  /** A custom style's preset, played in place of presets/<genre>.json (absent: the file's). */
  preset?: Preset;
  /** A second genre mixed in when the prompt names two ("jazzy house"): its weight 0–1. */
  blend: { genre: string; weight: number } | null;
  bpm: number;
  meter: { beatsPerBar: number; beatUnit: number };
  /** 0 = straight, 1 = full triplet swing of the swing subdivision. */
  swing: number;
  key: { tonic: PitchClass; mode: Mode };
  /** Russell circumplex coordinates in [-1, 1]. */
  valence: number;
  arousal: number;
  /** 0–1 base note density, scaled per section by the form. */
  density: number;
  form: FormKind;
  instruments: InstrumentChoice[];
  /** Roles the prompt excluded ("no drums", "solo piano"). */
  excluded: Role[];
  /** How a role is played throughout when the prompt says so ("the cello plays pizzicato"); absent: as the music asks. */
  articulations?: Partial<Record<Role, Articulation>>;
  effects: {
    /** Reverb send 0–1 and decay seconds. */
    reverb: number;
    reverbDecay: number;
    /** Tempo-synced delay send 0–1 (0 = none). */
    delay: number;
    /** Vinyl crackle, wow and a low-pass: the lo-fi treatment. */
    lofi: boolean;
    /** A rain noise bed under the music. */
    rain: boolean;
    /** Low-pass cutoff of the master in Hz (brightness); 20000 = open. */
    brightness: number;
  };
  /**
   * Who sings. Beyond on/off and the voice: how the prompt described it, for the singer to use where it can (each
   * field absent when the prompt did not say). `choir`: a group sings the line, not a soloist.
   */
  vocals: {
    enabled: boolean;
    gender: 'female' | 'male';
    quality?: VoiceQuality;
    age?: 'child';
    delivery?: Delivery;
    choir?: boolean;
  };
  /** The request's lyrics as given (sung when vocals are enabled), or null to have the engine write them. */
  lyrics: string | null;
  title: string;
  trace: TraceEntry[];
  /** Words or requests the engine ignored or could not honour, in plain sentences (shown as `metadata.warnings`). */
  warnings: string[];
  /** Names, occasion and places the prompt mentions, for the lyrics and the title. */
  subjects?: Subjects;
  /** The prompt as the English interpreter read it, when it was written in another language (lyrics themes come from it). */
  englishPrompt?: string;
  /** A seamless loop (GenerationRequest.loop): `duration` is then a whole number of bars. */
  loop?: boolean;
  /** The composition plan to play instead of the form's templates (GenerationRequest.plan resolved to bars). */
  plan?: ResolvedPlanSection[];
}

/** How a voice was described ("a raspy male voice", "a gentle voice", "breathy"). */
export const VOICE_QUALITIES = ['soft', 'breathy', 'raspy', 'powerful'] as const;
export type VoiceQuality = (typeof VOICE_QUALITIES)[number];

/** How the words were asked to be delivered when not simply sung: rap and speech are sung (with a warning), humming is a wordless voice. */
export const DELIVERIES = ['rapped', 'spoken', 'hummed', 'chanted'] as const;
export type Delivery = (typeof DELIVERIES)[number];

/** Who and what a song is for ("for my daughter Emma", "birthday", "about Lisbon"). */
export interface Subjects {
  names: string[];
  /** "my daughter" when the prompt names a relation. */
  relation: string | null;
  occasion: string | null;
  places: string[];
  /** What the prompt says the song is about ("about my old bicycle" -> "my old bicycle"), as written. */
  topic?: string | null;
}

/** A pitched note. `beat` is the grid position in quarter-note beats before swing and humanizing. */
export interface Note {
  /** Seconds from the start of the track, after swing and humanizing. */
  time: number;
  /** Seconds. */
  duration: number;
  /** MIDI note number; for drums a General MIDI percussion key (36 kick, 38 snare, 42 hat ...). */
  midi: number;
  /** 0–1. */
  velocity: number;
  /** Position on the grid in quarter-note beats from the start of the track. */
  beat: number;
  /**
   * How a sampled instrument plays the note when it has more than one way ("pizzicato" strings, "tremolo"
   * strings, a "muted" guitar). Absent: the instrument's ordinary playing (legato/sustained, open strings).
   */
  articulation?: Articulation;
  /**
   * Semitones the note starts away from its pitch and slides into it (an 808's glide from the note before;
   * negative: from below). Absent: it starts on its pitch.
   */
  glide?: number;
}

export const ARTICULATIONS = ['pizzicato', 'tremolo', 'muted'] as const;
export type Articulation = (typeof ARTICULATIONS)[number];

export interface Part {
  role: Role;
  instrument: string;
  notes: Note[];
  /** Mix level in dB relative to the role's default (the render stage owns the defaults). */
  gainDb: number;
  /** -1 (left) … 1 (right). */
  pan: number;
  /** The style's treatment of this part before the mix (boom bap's filtered, crushed sample loop). */
  tone?: PartTone;
}

/**
 * A sampler's character: the part resampled at `rate` Hz and `bits` deep, then band-limited to `highpass`–`lowpass`
 * Hz. A kit's drums sit on pads, each with its own level (`pads`, dB) and length (`chop`, seconds), as a
 * sampler sets each pad's.
 */
export interface PartTone {
  lowpass?: number;
  highpass?: number;
  bits?: number;
  rate?: number;
  pads?: Partial<Record<Drum, number>>;
  chop?: Partial<Record<Drum, number>>;
}

export interface ChordEvent {
  /** Grid beat where the chord starts and its length in beats. */
  beat: number;
  beats: number;
  /** Roman numeral as written in the preset ("ii7", "bVII", "V/V"). */
  symbol: string;
  /** Pitch classes 0–11 of the chord, root first. */
  pitchClasses: number[];
  root: number;
}

export interface Section {
  kind: SectionKind;
  /** An id shared by repeats of the same material ("A", "B"). */
  label: string;
  startBar: number;
  bars: number;
  /** Grid beat where it starts, and its start in seconds. */
  beat: number;
  time: number;
  /** 0–1: how full and loud this section is (drives density, layers and velocity). */
  energy: number;
  /** The roles that play in it (of the arrangement's). */
  roles: Role[];
  /** The plan kind it was asked as, when the track has a composition plan. */
  planKind?: PlanKind;
  /** The words the plan asked to be sung here. */
  lyrics?: string;
}

export interface Score {
  spec: SongSpec;
  bpm: number;
  beatsPerBar: number;
  /** Total length in seconds: exactly spec.duration (the tail of the ending rings out inside it). */
  duration: number;
  sections: Section[];
  chords: ChordEvent[];
  parts: Part[];
  /** Pitch classes 0–11 of the scale, tonic first. */
  scale: number[];
  /** The sung line when the spec has vocals enabled (its notes are also the 'vocal' Part, for MIDI), else null. */
  vocal: VocalScore | null;
}

/**
 * Vocals (issue 4). Text side: engine/lyrics/ turns words into syllables of ARPAbet phones.
 * Music side: engine/compose/vocal/ puts one syllable on each melody note (SungNote).
 * Sound side: engine/render/singer/ sings SungNotes into a mono Float32Array.
 */

/** An ARPAbet phone without its stress digit: vowels AA AE AH AO AW AY EH ER EY IH IY OW OY UH UW, consonants B CH D DH F G HH JH K L M N NG P R S SH T TH V W Y Z ZH. */
export type Phone = string;

export const VOWELS = [
  'AA',
  'AE',
  'AH',
  'AO',
  'AW',
  'AY',
  'EH',
  'ER',
  'EY',
  'IH',
  'IY',
  'OW',
  'OY',
  'UH',
  'UW',
] as const;
export const CONSONANTS = [
  'B',
  'CH',
  'D',
  'DH',
  'F',
  'G',
  'HH',
  'JH',
  'K',
  'L',
  'M',
  'N',
  'NG',
  'P',
  'R',
  'S',
  'SH',
  'T',
  'TH',
  'V',
  'W',
  'Y',
  'Z',
  'ZH',
] as const;

export interface Syllable {
  /** The letters this syllable stands for, for display and karaoke ("sum", "mer"); approximate splits are fine. */
  text: string;
  /** Consonants sung before the vowel (placed just before the beat). */
  onset: Phone[];
  /** The vowel (one of VOWELS; diphthongs AW AY EY OW OY glide inside the note). */
  nucleus: Phone;
  /** Consonants after the vowel (placed in the last part of the note). */
  coda: Phone[];
  /** CMU stress: 1 primary, 2 secondary, 0 unstressed. One-syllable function words ("the", "a", "to") are 0. */
  stress: 0 | 1 | 2;
}

export interface LyricWord {
  /** The word as written (punctuation stripped). */
  text: string;
  syllables: Syllable[];
  /** True when the word was not in the pronouncing dictionary and letter-to-sound rules spelled it. */
  guessed: boolean;
}

export interface LyricLine {
  /** The line as it will be shown (original spelling and punctuation). */
  text: string;
  words: LyricWord[];
  /** A written chorus's hook: the line that sings the title. */
  hook?: boolean;
}

export type LyricSectionKind = 'verse' | 'prechorus' | 'chorus' | 'bridge' | 'intro' | 'outro';

export interface LyricSection {
  kind: LyricSectionKind;
  lines: LyricLine[];
}

export interface Lyrics {
  /** 'given' = the request's lyrics; 'written' = made by the engine from the prompt. */
  source: 'given' | 'written';
  sections: LyricSection[];
}

/** A melody note with the syllable sung on it. Times are seconds, like Note. */
export interface SungNote extends Note {
  syllable: Syllable;
  /** A melisma continuation: the previous note's vowel carried on to this pitch (no onset consonants; the coda moves here). */
  continuation: boolean;
  /** Slur from this note into the next one (portamento, no gap). */
  legato: boolean;
  /**
   * Said, not sung (a rapped line): no vibrato, and the pitch falls from `glide` semitones above the note over its
   * whole length, as a spoken syllable's does. Absent: sung.
   */
  spoken?: boolean;
  /** Indexes into VocalScore.lines and that line's words. */
  line: number;
  word: number;
}

/** When a line (and each of its words) is sung, for karaoke-style display. Seconds from the track start. */
export interface LyricTiming {
  section: LyricSectionKind;
  text: string;
  start: number;
  end: number;
  words: { text: string; start: number; end: number }[];
}

export interface VocalScore {
  gender: 'female' | 'male';
  lyrics: Lyrics;
  /** The lead line, in time order, never overlapping. */
  notes: SungNote[];
  /** Backing "oohs"/harmony notes (chorus), sung on a vowel; may overlap each other (chords). */
  backing: SungNote[];
  lines: LyricTiming[];
}

/** What the service shows as `metadata` of a completed generation. */
export interface TrackMetadata {
  genre: string;
  /** Pulses a minute, as the request's `bpm` counts them (dotted quarters in 6/8 and 12/8, quarters in 7/8). */
  bpm: number;
  key: string;
  mode: Mode;
  meter: string;
  instruments: string[];
  sections: { kind: SectionKind; start: number; end: number; bars: number }[];
  /** The composition plan used, section by section: send it back as `sections` to get this form again. */
  plan: PlanReport[];
  /**
   * Of the mastered audio at 44.1 kHz: integrated loudness (LUFS, BS.1770) and true peak (dBTP), to 0.1.
   * Null when not measured (metadata built from a score alone).
   */
  loudness: { integrated: number; true_peak: number } | null;
  vocals: boolean;
  /** Who sings and whose words, when sung; null when instrumental. */
  voice: 'female' | 'male' | null;
  lyrics_source: 'given' | 'written' | null;
  /** The sung text with [Verse]/[Chorus]/[Bridge] tags, or null when instrumental. */
  lyrics: string | null;
  /** Per sung line: its start and end in seconds, and each word's (snake_case: shown as is in the API). */
  lyrics_timing: LyricTiming[] | null;
  trace: TraceEntry[];
  /** Words or requests the engine ignored or could not honour; empty when everything was understood. */
  warnings: string[];
  /** Only for a seamless loop: its length in bars and seconds, and the seconds asked for. */
  loop?: LoopInfo;
}

export interface LoopInfo {
  bars: number;
  seconds: number;
  requested_seconds: number;
}

export interface StyleInfo {
  name: string;
  description: string;
}

/**
 * Patch names the renderer knows. Interpretation picks from these; the renderer must implement all of them.
 * Drum kits are patches of the "drums" role, textures of the "texture" role.
 */
/** The patches the drums role plays (and only it). */
export const DRUM_KITS = [
  'acousticKit',
  'roomKit',
  'powerKit',
  'jazzKit',
  'brushKit',
  'orchestralPerc',
  'electronicKit',
  'lofiKit',
  'trapKit',
  'chipKit',
] as const;

export const PATCHES = [
  // keys (sampled: piano … harmonica; rhodes is a sampled tine electric piano)
  'piano',
  'brightPiano',
  'rhodes',
  'organ',
  'rockOrgan',
  'churchOrgan',
  'harpsichord',
  'clavinet',
  'accordion',
  'bandoneon',
  'harmonica',
  // guitars and other plucked strings (sampled)
  'guitar',
  'nylonGuitar',
  'cleanGuitar',
  'jazzGuitar',
  'mutedGuitar',
  'overdriveGuitar',
  'distGuitar',
  'banjo',
  'mandolin',
  'ukulele',
  'sitar',
  'koto',
  'harp',
  // mallets and pitched percussion (sampled)
  'marimba',
  'vibraphone',
  'xylophone',
  'glockenspiel',
  'celesta',
  'tubularBells',
  'musicBox',
  'kalimba',
  'steelDrums',
  'timpani',
  // bowed strings (sampled)
  'strings',
  'slowStrings',
  'pizzicatoStrings',
  'tremoloStrings',
  'violin',
  'viola',
  'cello',
  'contrabass',
  'fiddle',
  // brass (sampled)
  'brass',
  'trumpet',
  'mutedTrumpet',
  'trombone',
  'frenchHorn',
  'tuba',
  // reeds and flutes (sampled)
  'sopranoSax',
  'altoSax',
  'tenorSax',
  'baritoneSax',
  'clarinet',
  'oboe',
  'bassoon',
  'flute',
  'piccolo',
  'recorder',
  'whistle',
  'panFlute',
  // voices (sampled)
  'choir',
  'voiceOohs',
  // synthesizers (Tone.js)
  'pluck',
  'bells',
  'fmBell',
  'warmPad',
  'synthPad',
  'sawLead',
  'squareLead',
  // basses (acoustic, finger, picked, fretless, slap sampled; the rest synthesized)
  'acousticBass',
  'fingerBass',
  'pickedBass',
  'fretlessBass',
  'slapBass',
  'subBass',
  'tr808Bass',
  'acidBass',
  'reeseBass',
  'synthBass',
  // drum kits (acoustic ones sampled: standard, room, power, jazz, brush, orchestral; electronic ones synthesized)
  ...DRUM_KITS,
  // textures
  'rain',
  'vinyl',
  'ocean',
  'wind',
] as const;
export type Patch = (typeof PATCHES)[number];

export const DRUMS = [
  'kick',
  'snare',
  'clap',
  'hat',
  'openHat',
  'ride',
  'crash',
  'tomLow',
  'tomHigh',
  'shaker',
  'rim',
] as const;
export type Drum = (typeof DRUMS)[number];

/** General MIDI percussion keys for each drum, used in Part.notes[].midi of the drums role and in MIDI export. */
export const DRUM_MIDI: Record<Drum, number> = {
  kick: 36,
  snare: 38,
  clap: 39,
  hat: 42,
  openHat: 46,
  ride: 51,
  crash: 49,
  tomLow: 45,
  tomHigh: 50,
  shaker: 70,
  rim: 37,
};

export const BASS_STYLES = [
  'root',
  'rootFifth',
  'octaves',
  'walking',
  'offbeat',
  'sub808',
  'acid',
  'pedal',
  'ostinato',
  'locked',
  'kicks',
  'boogie',
  'dub',
] as const;
export type BassStyle = (typeof BASS_STYLES)[number];
export const CHORD_STYLES = [
  'block',
  'stabs',
  'arpeggio',
  'strum',
  'sustain',
  'comp',
  'ostinato',
  'marcato',
  'skank',
  'bubble',
  'scratch',
] as const;
export type ChordStyle = (typeof CHORD_STYLES)[number];

/**
 * A style preset: one JSON file in presets/, validated on load. Genre knowledge lives here as data,
 * so adding a style needs no code.
 */
export interface Preset {
  name: string;
  /** One line for GET /v1/styles. */
  description: string;
  /** Words and phrases that select this genre in a prompt ("lofi", "lo-fi", "chillhop"). */
  aliases: string[];
  bpm: { min: number; max: number; default: number };
  meter: { beatsPerBar: number; beatUnit: number };
  /** 0 straight … 1 full triplet swing. */
  swing: number;
  /** Preferred modes, most typical first. */
  modes: Mode[];
  /** Default valence/arousal of the genre before mood words move them. */
  valence: number;
  arousal: number;
  form: FormKind;
  /** Roman-numeral progressions, one symbol per chord, for major-ish and minor-ish modes. */
  progressions: { major: string[][]; minor: string[][] };
  /** Chords per bar: 0.5 (a chord every two bars), 1 or 2. */
  harmonicRhythm: number;
  /**
   * Drum grooves: for each drum a string with one character per step ('.' rest, '1'–'9' velocity).
   * `main` is the groove; `fill` replaces the last bar of a phrase; `half` is a sparser variant for verses/intros.
   */
  drums: {
    stepsPerBar: number;
    main: Partial<Record<Drum, string>>;
    fill: Partial<Record<Drum, string>>;
    half: Partial<Record<Drum, string>>;
    /** Trap's hat rolls: the chance (0–1) that a bar's hats roll in 32nds or sixteenth triplets for a beat. */
    rolls?: number;
    /**
     * A drummer's pickups (0–1): the chance that the last bar of a 4-bar phrase (one the `fill` bar does not
     * take) ends in a short fill on snare and toms into the next phrase, whose downbeat then gets a crash.
     */
    pickups?: number;
  } | null;
  bass: BassStyle;
  chords: ChordStyle;
  /**
   * MIDI range of the melody and how busy it is (0–1). `blue`: its passing notes come from the key's blues scale
   * (minor third, fourth, flat fifth and seventh over every chord), as a blues guitar's licks do.
   */
  melody: { low: number; high: number; density: number; blue?: boolean };
  /** Default patch per role. Roles absent here are not in the arrangement. */
  instruments: Partial<Record<Role, Patch>>;
  effects: { reverb: number; reverbDecay: number; delay: number; lofi: boolean; brightness: number };
  /** Whether the style is sung by default when a song is asked for (issue 4). */
  vocal: boolean;
  /** Mix level per role in dB over the render stage's defaults (hip hop's drums in front). Absent: 0. */
  levels?: Partial<Record<Role, number>>;
  /**
   * A chords-like way of playing for the pad or arp role on its own instrument (reggae's organ bubble, funk's
   * horn stabs). Absent: the pad sustains the voicings and the arp arpeggiates them.
   */
  playing?: Partial<Record<'pad' | 'arp', ChordStyle>>;
  /**
   * Call and response: each sung line is followed by as many bars as it sings, left to the lead instrument's
   * answer (the blues' guitar fills between the singer's phrases). Absent: lines follow each other.
   */
  answer?: boolean;
  /**
   * How the track ends: "stop", the beat plays on to its last bar and stops on one hit (a kick and the loop's
   * chord cut short, no crash), the texture (vinyl) running on. Absent: a held final chord with a crash.
   */
  ending?: 'stop';
  /** How the voice delivers the words when the track is sung: "rapped" (compose/vocal/rap.ts). Absent: sung. */
  delivery?: 'rapped';
  /** A role's treatment before the mix (render/tone.ts): boom bap's chopped loop low-passed and crushed. */
  tone?: Partial<Record<Role, PartTone>>;
}
