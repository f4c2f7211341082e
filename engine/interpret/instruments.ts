/**
 * The arrangement: which patch plays each role. Starts from the preset, lets a blended genre lend its
 * harmony instruments, then applies scene wishes (soft), instrument words (firm), "only" words
 * ("solo piano"), the acoustic rule (a prompt naming acoustic instruments outside an electronic style
 * loses the synthesizers nobody asked for) and exclusions ("no drums", "without piano"). Excluded roles
 * never survive.
 */
import { at, defined } from '../checked.ts';
import type { InstrumentEntry } from '../lexicon/index.ts';
import { PATCHES, type InstrumentChoice, type Patch, type Preset, type Role, type TraceEntry } from '../types.ts';
import { isSynth } from '../families.ts';

export const ROLE_ORDER: readonly Role[] = ['drums', 'bass', 'chords', 'pad', 'lead', 'arp', 'texture', 'vocal'];
/** Roles a blended genre lends: harmony and colour come from B, groove from A (section 2.2). */
const BLEND_ROLES: readonly Role[] = ['chords', 'pad', 'lead'];
/** Generic words for these roles exclude the role itself ("no drums"); other words exclude a patch ("no piano", "no tuba"). */
const RHYTHM_ROLES: readonly Role[] = ['drums', 'bass'];

/** Synthesizer colour: what an acoustic request drops unless it names it ("sad piano ballad" has no synth pad). */
const SYNTHS: ReadonlySet<Patch> = new Set<Patch>(PATCHES.filter(isSynth));
/** Patches that say nothing about an acoustic request: synthesizers, electronic kits and textures. */
const NOT_ACOUSTIC: ReadonlySet<Patch> = new Set<Patch>([
  ...SYNTHS,
  'electronicKit',
  'lofiKit',
  'trapKit',
  'chipKit',
  'rain',
  'vinyl',
  'ocean',
  'wind',
]);
/** The acoustic instrument that does a synthesizer's job, by what the synthesizer imitates (a square wave is a clarinet's tone). */
const ACOUSTIC_COUNTERPART: Record<string, Patch> = {
  warmPad: 'slowStrings',
  synthPad: 'strings',
  pluck: 'harp',
  bells: 'glockenspiel',
  fmBell: 'vibraphone',
  sawLead: 'violin',
  squareLead: 'clarinet',
  subBass: 'fingerBass',
  tr808Bass: 'fingerBass',
  synthBass: 'fingerBass',
  acidBass: 'fingerBass',
  reeseBass: 'fingerBass',
};
/** Words that ask for an acoustic sound in any style, and words that do so together with a named acoustic instrument. */
export const ACOUSTIC_WORDS: ReadonlySet<string> = new Set(['acoustic', 'unplugged']);
export const BALLAD_WORDS: ReadonlySet<string> = new Set(['ballad', 'ballads']);

/** The word's patch and the patches that already are that instrument ("guitar": any guitar). */
const sameAs = (entry: InstrumentEntry): Patch[] => [entry.patch, ...(entry.alike ?? [])];
/** What "no X" removes: X's own patches and those it refuses (lexicon `refuses`). */
const refusedBy = (entry: InstrumentEntry): Patch[] => [...sameAs(entry), ...(entry.refuses ?? [])];

/** A style is electronic when synthesizers play at least half of its pitched roles (house, trap, pop; not lofi or jazz). */
export function isElectronic(preset: Preset): boolean {
  const pitched = Object.entries(preset.instruments)
    .filter(([role]) => role !== 'drums' && role !== 'texture' && role !== 'vocal')
    .map(([, patch]) => patch);
  return pitched.length > 0 && pitched.filter((p) => SYNTHS.has(p)).length * 2 >= pitched.length;
}

export interface InstrumentWord {
  phrase: string;
  entry: InstrumentEntry;
  negated: boolean;
  only: boolean;
  /** The "only" cue that named it ("just", "only on"), for the trace. */
  onlyBy?: string;
  /** A negated word as written ("no saxophone", "saxophone absent"), for the trace. */
  said?: string;
  /** Named as the lead: it takes the lead role from the style's own ("the accordion seems to be the lead"). */
  lead: boolean;
}

export interface ArrangementInput {
  preset: Preset;
  blend: Preset | null;
  /** Soft wishes from scene/production words, in prompt order. */
  wishes: { phrase: string; role: Role; patch: Patch }[];
  words: InstrumentWord[];
  /** Roles excluded outright ("drumless", "no vocals"). */
  excludedRoles: { phrase: string; role: Role }[];
  keepVocal: boolean;
  /** Prompt words of ACOUSTIC_WORDS and BALLAD_WORDS, in prompt order. */
  acousticCues: string[];
  /** Whether a genre word or a style chose the genre (an ensemble word then joins it rather than replacing it). */
  genreNamed: boolean;
  /** "a cappella": voices and nothing else (a choir holds the harmony under the singer). */
  voicesOnly: string | null;
  /** "no other instrument", "no accompaniment": the instruments named are the whole line-up. */
  exclusive: string | null;
  /** "hummed": a wordless voice (the sampled "oohs") plays the melody. */
  hum: string | null;
  /** A singer carries the melody. */
  sung: boolean;
}

export interface Arrangement {
  instruments: InstrumentChoice[];
  excluded: Role[];
  trace: TraceEntry[];
}

/**
 * Without a genre word, an ensemble word is the whole line-up: "string quartet" becomes its members (violin lead,
 * viola chords, cello bass), each an "only" word, and the prompt's other instruments join them ("string quartet and harp").
 */
function playEnsembles(words: readonly InstrumentWord[]): InstrumentWord[] {
  if (!words.some((w) => w.entry.ensemble && !w.negated)) return [...words];
  return words.flatMap((w) => {
    if (w.negated) return [w];
    if (!w.entry.ensemble) return [{ ...w, only: true }];
    return Object.entries(w.entry.ensemble).map(([role, patch]) => ({
      phrase: w.phrase,
      entry: { patch, roles: [role as Role] },
      negated: false,
      only: true,
      lead: false,
    }));
  });
}

/** Where a melody instrument goes when the lead is taken: sustained pads or fills. */
const SECOND_CHAIR: readonly Role[] = ['pad', 'arp'];
/** Voice patches: all an a cappella arrangement keeps. */
const VOICES: ReadonlySet<Patch> = new Set<Patch>(['choir', 'voiceOohs']);
const CHOIR_WORD: InstrumentEntry = { patch: 'choir', roles: ['pad'] };
const HUM_WORD: InstrumentEntry = { patch: 'voiceOohs', roles: ['lead'] };

/**
 * The sentence readings as instrument words: "a cappella" keeps the named voices (or a choir) and nothing else,
 * "no other instrument" makes every named instrument an "only" word, and humming is a wordless voice that leads.
 */
function sentenceWords(input: ArrangementInput, trace: TraceEntry[]): InstrumentWord[] {
  let words = input.words;
  if (input.voicesOnly) {
    const dropped = words.filter((w) => !w.negated && !VOICES.has(w.entry.patch));
    if (dropped.length > 0) {
      trace.push({
        source: input.voicesOnly,
        effect: `voices only: ${dropped.map((w) => w.phrase).join(', ')} left out`,
      });
    }
    const voices = words.filter((w) => !w.negated && VOICES.has(w.entry.patch)).map((w) => ({ ...w, only: true }));
    const choir = { phrase: input.voicesOnly, entry: CHOIR_WORD, negated: false, only: true, lead: false };
    return voices.length > 0 ? voices : [choir];
  }
  if (input.exclusive) {
    const named = words.filter((w) => !w.negated && !w.entry.generic);
    if (named.length > 0) {
      trace.push({ source: input.exclusive, effect: 'the instruments named are the whole line-up' });
      words = words.map((w) => (w.negated ? w : { ...w, only: true }));
    } else {
      trace.push({ source: input.exclusive, effect: `no instrument named: ${input.preset.name}'s own line-up` });
    }
  }
  if (input.hum) words = [...words, { phrase: input.hum, entry: HUM_WORD, negated: false, only: false, lead: true }];
  return words;
}

export function arrange(input: ArrangementInput): Arrangement {
  const trace: TraceEntry[] = [];
  const spoken = sentenceWords(input, trace);
  const words = input.genreNamed ? spoken : playEnsembles(spoken);
  const roles = new Map<Role, Patch>(Object.entries(input.preset.instruments) as [Role, Patch][]);
  const locked = new Set<Role>();
  const excluded = new Set<Role>();
  const holds = (patch: Patch): Role | undefined => [...roles].find(([, p]) => p === patch)?.[0];

  if (input.blend) {
    for (const role of BLEND_ROLES) {
      const patch = input.blend.instruments[role];
      if (patch && roles.get(role) !== patch) {
        roles.set(role, patch);
        trace.push({ source: input.blend.name, effect: `${role} = ${patch} (from the blended genre)` });
      }
    }
  }

  for (const wish of input.wishes) {
    if (holds(wish.patch) !== undefined) continue;
    roles.set(wish.role, wish.patch);
    trace.push({ source: wish.phrase, effect: `${wish.role} = ${wish.patch}` });
  }

  const onlyWords = words.filter((w) => w.only);
  // Named leads first; then the most constrained words, so "vibes and muted trumpet" gives the trumpet the lead and
  // the vibes the chords.
  const firm = words
    .filter((w) => !w.negated && !w.only)
    .sort((a, b) => Number(b.lead) - Number(a.lead) || a.entry.roles.length - b.entry.roles.length);
  for (const word of firm) {
    const { entry } = word;
    const note = entry.note ? ` (${entry.note})` : '';
    if (word.lead && !entry.roles.every((r) => RHYTHM_ROLES.includes(r))) {
      const playing = roles.get('lead');
      if (playing !== undefined && sameAs(entry).includes(playing)) {
        trace.push({ source: word.phrase, effect: `lead kept as ${playing} (named as the lead)` });
      } else {
        roles.set('lead', entry.patch);
        trace.push({
          source: word.phrase,
          effect: `lead = ${entry.patch} (named as the lead${playing ? `, over ${playing}` : ''})${note}`,
        });
      }
      locked.add('lead');
      continue;
    }
    if (entry.generic) {
      const role = at(entry.roles, 0);
      if (!roles.has(role)) {
        roles.set(role, entry.patch);
        trace.push({ source: word.phrase, effect: `${role} = ${entry.patch}${note}` });
      } else {
        trace.push({ source: word.phrase, effect: `${role} kept as ${roles.get(role)} (the style's own)` });
      }
      locked.add(role);
      continue;
    }
    const alike = sameAs(entry).find((p) => holds(p) !== undefined);
    const present = alike === undefined ? undefined : holds(alike);
    if (alike !== undefined && present !== undefined) {
      locked.add(present);
      trace.push({
        source: word.phrase,
        effect: `${alike} already plays ${present}${alike === entry.patch ? note : ''}`,
      });
      continue;
    }
    // An empty preferred role first ("strings" in lofi becomes the pad, keeping the Rhodes), then any unlocked one;
    // a second horn named after the first takes a pad or fills ("trumpet, saxophone and trombone").
    const role =
      entry.roles.find((r) => !roles.has(r) && !locked.has(r)) ??
      entry.roles.find((r) => !locked.has(r)) ??
      (entry.roles.includes('lead') ? SECOND_CHAIR.find((r) => !locked.has(r)) : undefined);
    if (role === undefined) {
      trace.push({ source: word.phrase, effect: `no role left for ${entry.patch}` });
      continue;
    }
    roles.set(role, entry.patch);
    locked.add(role);
    trace.push({ source: word.phrase, effect: `${role} = ${entry.patch}${note}` });
  }

  if (onlyWords.length > 0) {
    const kept = new Map<Role, Patch>();
    // Each named instrument first takes its best free role, then leftover roles are filled in order,
    // so "just piano and cello" keeps both (piano chords, cello lead) rather than piano twice.
    // A generic word keeps the style's own patch for its role ("only drums and bass" in funk: its kit and slap bass).
    const patchOf = (word: InstrumentWord, role: Role): Patch =>
      (word.entry.generic ? input.preset.instruments[role] : undefined) ?? word.entry.patch;
    for (const word of onlyWords.filter((w) => w.lead)) kept.set('lead', word.entry.patch);
    for (const word of onlyWords) {
      const role = word.entry.roles.find((r) => !kept.has(r));
      if (role) kept.set(role, patchOf(word, role));
    }
    for (const word of onlyWords) {
      for (const role of word.entry.roles) if (!kept.has(role)) kept.set(role, patchOf(word, role));
    }
    // The prompt's other named instruments stay with them: "electric guitar solo over drums" keeps its drums.
    for (const role of locked) {
      const patch = roles.get(role);
      if (!kept.has(role) && patch !== undefined) kept.set(role, patch);
    }
    for (const role of ROLE_ORDER) {
      if (!kept.has(role) && (role !== 'vocal' || !(input.keepVocal || input.voicesOnly))) excluded.add(role);
    }
    roles.clear();
    for (const [role, patch] of kept) roles.set(role, patch);
    trace.push({
      source: [...new Set(onlyWords.map((w) => (w.onlyBy ? `${w.onlyBy} ${w.phrase}` : w.phrase)))].join(', '),
      effect: `only ${[...new Set(kept.values())].join(' and ')}: other roles excluded`,
    });
  }

  acousticRule(input, words, roles, trace);

  for (const word of words.filter((w) => w.negated)) {
    const rhythm = word.entry.generic === true && RHYTHM_ROLES.includes(at(word.entry.roles, 0));
    const refused = refusedBy(word.entry);
    const hit = rhythm ? [at(word.entry.roles, 0)] : [...roles].filter(([, p]) => refused.includes(p)).map(([r]) => r);
    for (const role of hit) excluded.add(role);
    trace.push({
      source: word.said ?? word.phrase,
      effect: hit.length > 0 ? `excluded ${hit.join(', ')}` : `${word.entry.patch} was not in the arrangement`,
    });
  }
  for (const { phrase, role } of input.excludedRoles) {
    excluded.add(role);
    trace.push({ source: phrase, effect: `excluded ${role}` });
  }
  for (const role of excluded) roles.delete(role);
  if (onlyWords.length === 0) standInLead(input, words, roles, excluded, trace);

  // Something must still make pitched sound when every melodic role was excluded ("no piano" in a piano style):
  // a synth pad in an electronic style, else strings for a pad or piano for chords (whichever was not refused).
  if (![...roles.keys()].some((r) => r !== 'drums' && r !== 'texture')) {
    const fallbackRole: Role = excluded.has('pad') ? (excluded.has('chords') ? 'lead' : 'chords') : 'pad';
    const refused = new Set(words.filter((w) => w.negated).flatMap((w) => refusedBy(w.entry)));
    const acoustic: Patch =
      fallbackRole === 'pad' || refused.has('piano') ? (refused.has('strings') ? 'piano' : 'strings') : 'piano';
    const patch: Patch = isElectronic(input.preset) ? 'warmPad' : acoustic;
    if (!excluded.has(fallbackRole)) {
      roles.set(fallbackRole, patch);
      trace.push({ source: 'default', effect: `${fallbackRole} = ${patch} (nothing else left to play the harmony)` });
    }
  }

  const instruments = ROLE_ORDER.flatMap((role) => {
    const instrument = roles.get(role);
    return instrument === undefined ? [] : [{ role, instrument }];
  });
  return { instruments, excluded: ROLE_ORDER.filter((r) => excluded.has(r)), trace };
}

/** Instruments that can carry a melody another was refused ("an orchestral piece with no brass"), in order. */
const LEAD_STAND_INS: readonly Patch[] = ['violin', 'flute', 'clarinet', 'piano'];

/**
 * "No saxophone" leaves the sax out, not the melody: when the style's lead instrument is refused by name (not "no
 * lead", not an "only" line-up) and nobody sings, another instrument takes the tune.
 */
function standInLead(
  input: ArrangementInput,
  words: readonly InstrumentWord[],
  roles: Map<Role, Patch>,
  excluded: Set<Role>,
  trace: TraceEntry[],
): void {
  const own = input.preset.instruments.lead;
  if (input.sung || !own || !excluded.has('lead') || input.excludedRoles.some((r) => r.role === 'lead')) return;
  // With nothing left to accompany it, the harmony fallback below decides what plays.
  if (!roles.has('chords') && !roles.has('pad')) return;
  const refused = new Set(words.filter((w) => w.negated).flatMap((w) => refusedBy(w.entry)));
  const playing = new Set(roles.values());
  // A swung style's horn player hands the tune to another horn; others to the strings or woodwinds.
  const candidates = input.preset.swing >= 0.3 ? ['trumpet' as const, ...LEAD_STAND_INS] : LEAD_STAND_INS;
  const patch = isElectronic(input.preset) ? 'sawLead' : candidates.find((p) => !refused.has(p) && !playing.has(p));
  if (!patch || refused.has(patch)) return;
  excluded.delete('lead');
  roles.set('lead', patch);
  trace.push({
    source: 'default',
    effect: `lead = ${patch} (in place of the ${own} left out: something carries the tune)`,
  });
}

/**
 * The prompt's acoustic instruments win: when it names one (not a synth, an electronic kit or a texture) and the
 * style is not electronic, or names one in a ballad, or says "acoustic"/"unplugged", every synthesizer nobody
 * asked for gives its role back to the style's own acoustic patch, or to its acoustic counterpart, or is dropped
 * when that counterpart already plays elsewhere.
 */
function acousticRule(
  input: ArrangementInput,
  words: readonly InstrumentWord[],
  roles: Map<Role, Patch>,
  trace: TraceEntry[],
): void {
  const asked = words.filter((w) => !w.negated);
  const named = asked.filter((w) => !w.entry.generic && !NOT_ACOUSTIC.has(w.entry.patch));
  const said = input.acousticCues.filter((w) => ACOUSTIC_WORDS.has(w));
  const ballad = input.acousticCues.some((w) => BALLAD_WORDS.has(w));
  let cause: string;
  if (said.length > 0) cause = said.join(', ');
  else if (named.length > 0 && (!isElectronic(input.preset) || ballad))
    cause = [...new Set(named.map((w) => w.phrase))].join(', ');
  else return;

  const wanted = new Set(asked.map((w) => w.entry.patch));
  const refused = new Set(words.filter((w) => w.negated).flatMap((w) => refusedBy(w.entry)));
  for (const [role, patch] of [...roles]) {
    if (!SYNTHS.has(patch) || wanted.has(patch)) continue;
    const own = input.preset.instruments[role];
    const counterpart =
      own && !SYNTHS.has(own) ? own : defined(ACOUSTIC_COUNTERPART[patch], `an acoustic counterpart for ${patch}`);
    const elsewhere = own !== counterpart && [...roles].some(([r, p]) => r !== role && p === counterpart);
    if (refused.has(counterpart) || elsewhere) {
      roles.delete(role);
      trace.push({ source: cause, effect: `${role} ${patch} dropped (an acoustic arrangement)` });
    } else {
      roles.set(role, counterpart);
      trace.push({ source: cause, effect: `${role} = ${counterpart} instead of ${patch} (an acoustic arrangement)` });
    }
  }
}
