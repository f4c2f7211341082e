/**
 * Phoneme timing: where each phone of each syllable is sung. The vowel starts on the note (the note onset is
 * the vowel onset, as singers do it), onset consonants are squeezed in just before it, coda consonants take
 * the end of the note, and a breath goes before a phrase that follows a rest.
 */
import type { Phone, SungNote } from '../../types.ts';
import { at, last } from '../../checked.ts';
import { isVowel } from '../../lyrics/phones.ts';
import {
  aspirationTarget,
  breathTarget,
  consonantSpec,
  consonantTargets,
  vowelTargets,
  type ConsonantSpec,
  type Gender,
} from './phones.ts';

export type PhoneKind = 'vowel' | 'consonant' | 'breath' | 'silence';

/** One stretch of the plan with its synthesis targets: `to` is set for diphthongs, which glide inside the vowel. */
export interface Segment {
  phone: Phone;
  kind: PhoneKind;
  start: number;
  end: number;
  midi: number;
  velocity: number;
  from: Float64Array;
  to: Float64Array | null;
  /** Where in the segment (0–1) the glide from `from` to `to` starts and ends; diphthongs' when absent. */
  glide?: readonly [number, number];
}

/** What the pitch contour needs to know about a note once its phones are placed. */
export interface PitchNote {
  /** When this note's pitch takes over: its first onset consonant, or the start of the portamento. */
  from: number;
  time: number;
  duration: number;
  midi: number;
  /** The previous note's MIDI when this note is slurred into (portamento), else null. */
  glideFrom: number | null;
  /** A spoken note's fall: semitones above its pitch it starts at and falls from over its length; null when sung. */
  fall: number | null;
}

export interface VoicePlan {
  segments: Segment[];
  notes: PitchNote[];
}

/** Seconds of a consonant's three stretches (a stretch it does not have is 0). */
type ConsonantSeconds = readonly [closure: number, release: number, aspiration: number];

/**
 * Seconds of each onset consonant: closure, release (burst, frication, murmur) and, for voiceless stops, the
 * aspiration after the burst (voice onset time 40–70 ms in English /p t k/; the formants already glide to the
 * vowel in it, which is much of how a listener tells /p/ from /t/ from /k/).
 */
const ONSET_SECONDS: Record<ConsonantSpec['cls'], ConsonantSeconds> = {
  plosive: [0.035, 0.012, 0.045],
  affricate: [0.03, 0.06, 0],
  fricative: [0, 0.09, 0],
  aspirate: [0, 0.07, 0],
  nasal: [0, 0.065, 0],
  liquid: [0, 0.06, 0],
  glide: [0, 0.055, 0],
};
/** Codas are held a little longer: the stop closure before its release, the nasal hum, the final hiss. */
const CODA_SECONDS: Record<ConsonantSpec['cls'], ConsonantSeconds> = {
  plosive: [0.045, 0.015, 0.03],
  affricate: [0.035, 0.07, 0],
  fricative: [0, 0.1, 0],
  aspirate: [0, 0.05, 0],
  nasal: [0, 0.08, 0],
  liquid: [0, 0.07, 0],
  glide: [0, 0.05, 0],
};
/**
 * Onset consonants take their time from the end of the previous note: at most MAX_STEAL of it when they fit,
 * more when they do not (a fast note keeps its consonants whole), but the previous vowel keeps MIN_VOWEL.
 * Only when even that is too little are they all shortened in proportion.
 */
const MAX_STEAL = 0.4;
const MIN_VOWEL = 0.06;
/** A coda takes at most this share of its note, and at most this many seconds. */
const MAX_CODA_SHARE = 0.45;
const MAX_CODA_SECONDS = 0.15;
/** A rest longer than this gets an in-breath before the next phrase. */
export const BREATH_REST = 0.3;
const BREATH_SECONDS = 0.28;
const BREATH_GAP = 0.04;
/** Portamento into a slurred note: starts this long before the note and ends this long after it. */
export const GLIDE_BEFORE = 0.04;
export const GLIDE_AFTER = 0.03;
/**
 * Words are parted: a note that ends a word (and is not slurred into the next) ends this much early, at most
 * WORD_GAP_SHARE of it, so its vowel and coda are released and a moment of silence comes before the next word's
 * consonants, as a singer who is understood sings ("sings | a | morning" rather than "singsamorning"). Syllables
 * inside a word and the notes of a melisma still run into each other. What it did to recognizer word recall:
 * docs/songs.md.
 */
const WORD_GAP = 0.12;
const WORD_GAP_SHARE = 0.3;
/** Segments shorter than this are dropped (a consonant with no room left). */
const MIN_SEGMENT = 0.004;

interface PlacedConsonant {
  phone: Phone;
  spec: ConsonantSpec;
  closure: number;
  release: number;
  aspiration: number;
}

function consonants(phones: readonly Phone[], table: typeof ONSET_SECONDS): PlacedConsonant[] {
  const out: PlacedConsonant[] = [];
  for (const phone of phones) {
    const spec = consonantSpec(phone);
    if (!spec) continue;
    const [closure, release, aspiration] = table[spec.cls];
    out.push({ phone, spec, closure, release, aspiration: spec.voiced ? 0 : aspiration });
  }
  return out;
}

const lengthOf = (c: PlacedConsonant) => c.closure + c.release + c.aspiration;
const span = (list: PlacedConsonant[]) => list.reduce((s, c) => s + lengthOf(c), 0);

function scaleConsonant(c: PlacedConsonant, scale: number): void {
  c.closure *= scale;
  c.release *= scale;
  c.aspiration *= scale;
}

/** A nucleus that is not a vowel (bad input) is sung as the neutral AH rather than dropped. */
function vowelOf(phone: Phone): Phone {
  return isVowel(phone) ? phone : 'AH';
}

/** The note as sung: shortened by its word gap when it ends a word (WORD_GAP). Spoken (rapped) notes keep their own timing. */
function parted(note: SungNote, next: SungNote | undefined): SungNote {
  const endsWord = !next || next.line !== note.line || (next.word !== note.word && !next.continuation);
  if (!endsWord || note.legato || note.spoken) return note;
  return { ...note, duration: note.duration - Math.min(WORD_GAP, WORD_GAP_SHARE * note.duration) };
}

/** Lays out one voice's notes (time order, not overlapping) as phone segments and pitch notes. */
export function planVoice(notes: readonly SungNote[], gender: Gender): VoicePlan {
  const sorted = [...notes].sort((a, b) => a.time - b.time).map((note, k, all) => parted(note, all[k + 1]));
  // Pass 1: each note's onset consonants and when they start.
  const onsets: PlacedConsonant[][] = [];
  const onsetStart: number[] = [];
  for (const [k, note] of sorted.entries()) {
    const prev = sorted[k - 1];
    const list = note.continuation && prev ? [] : consonants(note.syllable.onset, ONSET_SECONDS);
    const natural = span(list);
    let floor = prev ? prev.time + (1 - MAX_STEAL) * prev.duration : 0;
    if (prev && note.time - floor < natural)
      floor = Math.min(floor, Math.max(note.time - natural, prev.time + MIN_VOWEL));
    const available = Math.max(0, note.time - Math.max(floor, 0));
    const scale = natural > available ? available / natural : 1;
    for (const c of list) scaleConsonant(c, scale);
    onsets.push(list);
    onsetStart.push(note.time - natural * scale);
  }

  const segments: Segment[] = [];
  const pitchNotes: PitchNote[] = [];
  let headNucleus: Phone = 'AH';
  let headCoda: readonly Phone[] = [];
  let prevEnd = -Infinity;
  for (const [k, note] of sorted.entries()) {
    const prev = sorted[k - 1];
    const next = sorted[k + 1];
    const continuation = note.continuation && prev !== undefined;
    if (!continuation) {
      headNucleus = vowelOf(note.syllable.nucleus);
      headCoda = note.syllable.coda;
    }
    const end = Math.min(note.time + note.duration, onsetStart[k + 1] ?? Infinity);
    const codaPhones = next?.continuation
      ? []
      : continuation && note.syllable.coda.length === 0
        ? headCoda
        : note.syllable.coda;
    const coda = consonants(codaPhones, CODA_SECONDS);
    const codaNatural = span(coda);
    const codaRoom = Math.min(MAX_CODA_SECONDS, MAX_CODA_SHARE * Math.max(0, end - note.time));
    const codaScale = codaNatural > codaRoom ? codaRoom / codaNatural : 1;

    let vowel = vowelTargets(headNucleus, gender);
    // A melisma carries the vowel on: a diphthong holds its end shape instead of gliding again.
    if (continuation && vowel.length > 1) vowel = [at(vowel, 1)];
    const onset = at(onsets, k);
    const firstStart = onset.length > 0 ? at(onsetStart, k) : note.time;

    if (k === 0 || firstStart - prevEnd > BREATH_REST) {
      const breathEnd = firstStart - BREATH_GAP;
      const breathStart = Math.max(k === 0 ? 0 : prevEnd + BREATH_GAP, breathEnd - BREATH_SECONDS);
      if (breathEnd - breathStart >= 0.1) {
        const target = breathTarget(gender);
        push(segments, {
          phone: 'HH',
          kind: 'breath',
          start: breathStart,
          end: breathEnd,
          midi: note.midi,
          velocity: note.velocity,
          from: target,
          to: null,
        });
      }
    }

    let t = at(onsetStart, k);
    for (const c of onset) t = pushConsonant(segments, c, t, note, gender, at(vowel, 0), true);
    const vowelEnd = end - codaNatural * codaScale;
    push(segments, {
      phone: headNucleus,
      kind: 'vowel',
      start: note.time,
      end: vowelEnd,
      midi: note.midi,
      velocity: note.velocity,
      from: at(vowel, 0),
      to: vowel[1] ?? null,
    });
    t = vowelEnd;
    for (const c of coda) {
      scaleConsonant(c, codaScale);
      t = pushConsonant(segments, c, t, note, gender, last(vowel), false);
    }
    prevEnd = end;

    const slurred = prev?.legato && note.time - (prev.time + prev.duration) < 0.05;
    pitchNotes.push({
      from: slurred ? note.time - GLIDE_BEFORE : Math.min(firstStart, note.time),
      time: note.time,
      duration: note.duration,
      midi: note.midi,
      glideFrom: slurred ? prev.midi : null,
      fall: note.spoken ? (note.glide ?? 0) : null,
    });
  }
  return { segments, notes: pitchNotes };
}

function push(segments: Segment[], segment: Segment): void {
  if (segment.end - segment.start >= MIN_SEGMENT) segments.push(segment);
}

/**
 * Appends a consonant's closure, release and aspiration from `t`; returns where it ends. `vowel` (the one the
 * consonant leads into, or for a coda the one it ends) shapes an /h/ and a stop's aspiration.
 */
function pushConsonant(
  segments: Segment[],
  c: PlacedConsonant,
  t: number,
  note: SungNote,
  gender: Gender,
  vowel: Float64Array,
  onset: boolean,
): number {
  const targets = consonantTargets(c.spec, gender);
  const base = { phone: c.phone, midi: note.midi, velocity: note.velocity, to: null };
  if (targets.closure && c.closure > 0)
    push(segments, { ...base, kind: 'silence', start: t, end: t + c.closure, from: targets.closure });
  if (c.spec.cls === 'aspirate') targets.release.set(vowel.subarray(0, 10));
  push(segments, {
    ...base,
    kind: 'consonant',
    start: t + c.closure,
    end: t + c.closure + c.release,
    from: targets.release,
  });
  if (c.aspiration > 0) {
    // Aspiration: breath noise through the tract as it moves from the stop's locus into the vowel (onsets), or
    // out of the vowel it ends (codas).
    push(segments, {
      ...base,
      kind: 'consonant',
      start: t + c.closure + c.release,
      end: t + lengthOf(c),
      from: aspirationTarget(targets.release, vowel),
      to: onset ? vowel : null,
      glide: [0, 1],
    });
  }
  return t + lengthOf(c);
}
