/**
 * The sung line: lyrics (given or written for the prompt) placed on the form's sung sections, one syllable per
 * note, rhythm first (stress on strong beats), then pitches against the chords in the singer's range; a
 * melisma only on a line's last syllable, and only on an open vowel; backing "oohs" on chord tones in the choruses of styles that use them.
 */
import { at } from '../../checked.ts';
import { parseLyrics, writeLyrics, type LyricPlan } from '../../lyrics/index.ts';
import type { Random } from '../../random.ts';
import type { LyricSectionKind, LyricTiming, Lyrics, SungNote, Syllable, VocalScore } from '../../types.ts';
import { chordAt, clamp, sectionVelocity, type ComposeContext } from '../model.ts';
import { nearestChordTone } from '../melody.ts';
import { assignGiven, assignWritten, type SungLine } from './assign.ts';
import { sectionLyricLines } from './section-lyrics.ts';
import { planLineSlots, syllableRange, type LineSlot } from './lines.ts';
import { linePitches, melismaPitch } from './pitch.ts';
import { metricWeight, placeSyllables } from './rhythm.ts';
import { rapLine, rapSlots, rapSyllableRange, raps, SPEAKING_PITCH } from './rap.ts';

export { planLineSlots } from './lines.ts';
export { assignGiven } from './assign.ts';
export { sectionLyricLines } from './section-lyrics.ts';

/**
 * Singing ranges (MIDI): male A2–E4, female G3–D5 (reference study 3.3 gives A3–D5; a pop singer's low G3 is
 * added so the lower female tessitura below does not fold its lowest notes an octave up).
 */
export const VOCAL_RANGE: Record<'female' | 'male', { low: number; high: number }> = {
  male: { low: 45, high: 64 },
  female: { low: 55, high: 74 },
};
/** The backing choir keeps to the comfortable A2–E4 and A3–D5. */
const BACKING_RANGE: Record<'female' | 'male', { low: number; high: number }> = {
  male: { low: 45, high: 64 },
  female: { low: 57, high: 74 },
};
/**
 * Semitones the line's centre is moved from its place in the range (REGISTER). A female lead set like the male
 * one sat at F#4–G4 on average (370–390 Hz, near a female singer's first passaggio), where pop singers sit their
 * verses lower (C4–E4) and rise in the chorus. High notes cost words: the harmonics sample the vowel's formants
 * too sparsely to tell them apart, and a recognizer found 27% of a female lead's phones, 35% of the same lines
 * five semitones lower (docs/songs.md). Two semitones lower puts the female verse about D4–E4.
 */
const TESSITURA: Record<'female' | 'male', number> = { male: 0, female: -2 };

/** Styles whose choruses get backing "oohs". */
const BACKING_STYLES = new Set([
  'pop',
  'rock',
  'folk',
  'soul',
  'reggae',
  'synthwave',
  'house',
  'jazz',
  'country',
  'gospel',
  'disco',
  'kpop',
  'jpop',
  'afrobeat',
  'salsa',
  'kids',
]);
/** Where in the range each kind of section sits (0 bottom … 1 top): the chorus lifts. */
const REGISTER: Record<LyricSectionKind, number> = {
  intro: 0.4,
  verse: 0.4,
  prechorus: 0.5,
  chorus: 0.62,
  bridge: 0.55,
  outro: 0.4,
};
/** Lines a written section holds at most, however long the form makes it. */
const MAX_WRITTEN_LINES = 8;
/** Vowels a singer carries over two notes: open ones (a melisma on "see" or "you" sounds like a yodel). */
const OPEN_VOWELS = new Set(['AA', 'AO', 'AE', 'AH', 'EH', 'AY', 'AW', 'OW', 'OY', 'EY']);
/**
 * Seconds a line's last note is held at most. A line with time to spare holds its last syllable (rhythm.ts), and
 * held for four seconds in a slow ballad it was heard as more words: capped at 1.6 s, recognizer recall rose on
 * slow songs (docs/songs.md).
 */
const HELD_LAST = 1.6;
const OOH: Syllable = { text: 'ooh', onset: [], nucleus: 'UW', coda: [], stress: 0 };

export interface VocalTiming {
  /** Seconds at a meter beat, with the arrangement's swing. */
  seconds(beat: number): number;
  /** Quarter notes per meter beat (Note.beat counts quarters). */
  quarterPerBeat: number;
}

/** The lyric source of the spec: the request's lyrics when given, else written for the form's slots. */
function chooseLines(
  ctx: ComposeContext,
  slots: LineSlot[],
  random: Random,
  range: typeof syllableRange,
): { lyrics: Lyrics; lines: SungLine[] } {
  const { spec } = ctx;
  if (ctx.sections.some((section) => section.lyrics !== undefined))
    return sectionLyricLines(slots, ctx.sections, spec.duration);
  if (spec.lyrics !== null && spec.lyrics.trim() !== '') {
    const lyrics = parseLyrics(spec.lyrics);
    return { lyrics, lines: assignGiven(lyrics, slots, spec.duration) };
  }
  const bySection = new Map<number, LineSlot[]>();
  for (const slot of slots) bySection.set(slot.section, [...(bySection.get(slot.section) ?? []), slot]);
  // Every chorus sings the same lines: the writer writes them for the longest, and a shorter chorus (one cut by
  // the ending, or a 4-bar one) sings the first of them, the hook and its answer.
  const sized = [...bySection.values()].map((group) => group.slice(0, MAX_WRITTEN_LINES));
  const plan: LyricPlan = {
    sections: sized.map((g) => ({
      kind: at(g, 0).kind,
      lines: g.length,
      syllables: range(Math.min(...g.map((s) => s.slots)), at(g, 0).slotBeats),
    })),
  };
  const lyrics = writeLyrics(
    {
      prompt: spec.englishPrompt ?? spec.prompt,
      subjects: spec.subjects,
      valence: spec.valence,
      arousal: spec.arousal,
      plan,
      title: spec.title,
    },
    random.fork('lyrics'),
  );
  return { lyrics, lines: assignWritten(lyrics, sized) };
}

interface PlacedLine {
  /** Meter beats from the line's start (repeats of a section start elsewhere). */
  offsets: number[];
  pitches: number[];
  /** Split the last syllable into a held note and a step (melisma). */
  melisma: boolean;
  /** A rapped line: each syllable's length in meter beats, its fall in semitones and its velocity factor. */
  spoken?: { lengths: number[]; falls: number[]; accents: number[] };
}

/** The line slots the voice fills: phrases of the sung sections, or bars when it raps. */
export function vocalSlots(
  ctx: Pick<ComposeContext, 'bpm' | 'beatsPerBar' | 'sections' | 'endingBeat' | 'preset' | 'spec'>,
): LineSlot[] {
  const rapped = raps(ctx);
  const sung = planLineSlots(ctx, ctx.preset.answer === true && !rapped);
  return rapped ? rapSlots(sung, ctx.beatsPerBar) : sung;
}

export function composeVocal(ctx: ComposeContext, timing: VocalTiming, random: Random): VocalScore | null {
  const { spec } = ctx;
  if (!spec.vocals.enabled) return null;
  const rapped = raps(ctx);
  const slots = vocalSlots(ctx);
  if (slots.length === 0) return null;
  const secondsPerBeat = 60 / ctx.bpm;
  const syllables = rapped ? (steps: number) => rapSyllableRange(steps, secondsPerBeat) : syllableRange;
  const { lyrics, lines } = chooseLines(ctx, slots, random, syllables);
  if (lines.length === 0) return null;
  const range = VOCAL_RANGE[spec.vocals.gender];
  const placed = new Map<string, PlacedLine>();
  const notes: SungNote[] = [];
  const timings: LyricTiming[] = [];

  lines.forEach((sung, lineIndex) => {
    const { slot, line } = sung;
    const syllables = line.words.flatMap((word, w) => word.syllables.map((syllable) => ({ syllable, word: w })));
    const stresses = syllables.map((s) => s.syllable.stress);
    const grid = { slots: slot.slots, slotBeats: slot.slotBeats, beatsPerBar: ctx.beatsPerBar, secondsPerBeat };
    const section = at(ctx.sections, slot.section);
    // The same words in a section of the same label (every chorus) get the same tune: the hook repeats.
    const key = `${slot.label}/${line.text}`;
    let shape = placed.get(key);
    const closesSection = lines[lineIndex + 1]?.slot.section !== slot.section;
    if (!shape && rapped) {
      const center = SPEAKING_PITCH[spec.vocals.gender] + Math.round(spec.arousal);
      const rap = rapLine(stresses, grid, { center, closesSection }, random.fork(key));
      const beats = (steps: number[]) => steps.map((step) => step * slot.slotBeats);
      shape = {
        offsets: beats(rap.steps),
        pitches: rap.pitches,
        melisma: false,
        spoken: { lengths: beats(rap.lengths), falls: rap.falls, accents: rap.accents },
      };
      placed.set(key, shape);
    }
    if (!shape) {
      const steps = placeSyllables(stresses, grid) ?? stresses.map((_, k) => k);
      const onsets = steps.map((step) => slot.beat + step * slot.slotBeats);
      const accented = steps.map((step, k) => at(stresses, k) >= 1 || metricWeight(step, grid) >= 3);
      const center = Math.round(
        range.low +
          REGISTER[sung.kind] * (range.high - range.low) +
          TESSITURA[spec.vocals.gender] +
          spec.valence +
          spec.arousal,
      );
      const lineRandom = random.fork(key);
      const pitches = linePitches(ctx, { onsets, accented, center, range, closesSection }, lineRandom);
      const lastSteps = slot.slots - at(steps, steps.length - 1);
      shape = {
        offsets: steps.map((step) => step * slot.slotBeats),
        pitches,
        melisma:
          lastSteps * slot.slotBeats >= 1.5 &&
          lineRandom.chance(0.45) &&
          OPEN_VOWELS.has(at(syllables, syllables.length - 1).syllable.nucleus),
      };
      placed.set(key, shape);
    }
    const end = slot.beat + slot.slots * slot.slotBeats;
    const velocity = sectionVelocity(spec.arousal, section.energy);
    const lineNotes: SungNote[] = [];
    syllables.forEach(({ syllable, word }, k) => {
      const beat = slot.beat + at(shape.offsets, k);
      const nextBeat = k + 1 < syllables.length ? slot.beat + at(shape.offsets, k + 1) : end;
      const pitch = at(shape.pitches, k);
      const last = k === syllables.length - 1;
      const accent = syllable.stress === 1 ? 1 : 0.88;
      const base = { velocity: clamp(velocity * accent, 0.1, 1), line: lineIndex, word };
      const spoken = shape.spoken;
      if (spoken) {
        const note = sungNote(timing, beat, beat + at(spoken.lengths, k), pitch, syllable, false, {
          ...base,
          velocity: clamp(velocity * at(spoken.accents, k), 0.1, 1),
        });
        lineNotes.push({ ...note, spoken: true, glide: at(spoken.falls, k) });
      } else if (last && shape.melisma) {
        const split = beat + (nextBeat - beat) * 0.6;
        lineNotes.push(sungNote(timing, beat, split, pitch, syllable, false, base));
        lineNotes.push(sungNote(timing, split, nextBeat, melismaPitch(ctx, split, pitch, range), syllable, true, base));
      } else {
        lineNotes.push(sungNote(timing, beat, nextBeat, pitch, syllable, false, base));
      }
    });
    // The line's last note is held at most HELD_LAST, then the singer rests and breathes before the next line.
    const final = lineNotes[lineNotes.length - 1];
    if (final && final.duration > HELD_LAST) final.duration = HELD_LAST;
    // Syllables of a word run into each other, slurred (portamento) where the next starts on its vowel; the
    // singer parts words (render/singer/plan.ts).
    lineNotes.forEach((note, k) => {
      const next = lineNotes[k + 1];
      note.legato =
        next !== undefined && (next.continuation || (next.syllable.onset.length === 0 && next.word === note.word));
    });
    notes.push(...lineNotes);
    timings.push(
      lineTiming(
        sung,
        line.words.map((w) => w.text),
        lineNotes,
      ),
    );
  });

  const backing = BACKING_STYLES.has(ctx.preset.name)
    ? composeBacking(ctx, lines, timing, BACKING_RANGE[spec.vocals.gender])
    : [];
  return { gender: spec.vocals.gender, lyrics, notes, backing, lines: timings };
}

function sungNote(
  timing: VocalTiming,
  beat: number,
  endBeat: number,
  midi: number,
  syllable: Syllable,
  continuation: boolean,
  base: { velocity: number; line: number; word: number },
): SungNote {
  const time = round(timing.seconds(beat));
  return {
    time,
    duration: round(timing.seconds(endBeat) - time),
    midi,
    velocity: round(base.velocity),
    beat: beat * timing.quarterPerBeat,
    syllable,
    continuation,
    legato: false,
    line: base.line,
    word: base.word,
  };
}

/** Karaoke timing to the millisecond: finer than any display needs, and short in the API's JSON. */
const ms = (seconds: number): number => Math.round(seconds * 1000) / 1000;

function lineTiming(sung: SungLine, words: string[], notes: readonly SungNote[]): LyricTiming {
  const span = (selected: readonly SungNote[]) => ({
    start: ms(at(selected, 0).time),
    end: ms(at(selected, selected.length - 1).time + at(selected, selected.length - 1).duration),
  });
  return {
    section: sung.kind,
    text: sung.line.text,
    ...span(notes),
    words: words.map((text, w) => ({ text, ...span(notes.filter((n) => n.word === w)) })),
  };
}

/** Two sustained chord tones on "ooh" under each chorus line, changing with the chords. */
function composeBacking(
  ctx: ComposeContext,
  lines: readonly SungLine[],
  timing: VocalTiming,
  range: { low: number; high: number },
): SungNote[] {
  const notes: SungNote[] = [];
  lines.forEach((sung, lineIndex) => {
    if (sung.kind !== 'chorus') return;
    const start = sung.slot.beat;
    const end = sung.slot.beat + sung.slot.beats;
    const velocity = 0.28 + 0.12 * at(ctx.sections, sung.slot.section).energy;
    for (let beat = start; beat < end - 1e-6; ) {
      const slot = chordAt(ctx.chords, beat);
      const until = Math.min(end, slot.beat + slot.beats);
      const pcs = slot.chord.pitchClasses;
      const lowTone = nearestChordTone(range.low + 4, pcs, 1);
      const highTone = nearestChordTone(
        lowTone + 3,
        pcs.filter((pc) => pc !== ((lowTone % 12) + 12) % 12),
        1,
      );
      for (const midi of [lowTone, highTone]) {
        const time = round(timing.seconds(beat));
        notes.push({
          time,
          duration: round(Math.max(0.1, timing.seconds(until) - time - 0.06)),
          midi,
          velocity: round(velocity),
          beat: beat * timing.quarterPerBeat,
          syllable: OOH,
          continuation: false,
          legato: false,
          line: lineIndex,
          word: 0,
        });
      }
      beat = until;
    }
  });
  return notes.sort((a, b) => a.time - b.time || a.midi - b.midi);
}

const round = (value: number): number => Math.round(value * 1e6) / 1e6;
