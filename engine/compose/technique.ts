/**
 * Playing technique on top of the notes: a pianist's sustain pedal, re-pedalled at every chord change, and
 * bowed strings plucked (pizzicato) in quiet short-note passages or bowed tremolo under an orchestral climax, or
 * throughout when the prompt asks for it.
 * Decided per section and part, never note by note, so a passage keeps one way of playing.
 */
import type { ChordStyle, Role } from '../types.ts';
import { EPSILON, chordAt, sectionAt, type ComposeContext, type GridNote } from './model.ts';
import { familyOf, isBowed } from './instruments.ts';

/** Chord styles whose point is the silence between short chords: never pedalled. */
const SHORT_STYLES: ReadonlySet<ChordStyle> = new Set(['stabs', 'marcato', 'skank', 'bubble', 'scratch']);

/**
 * Piano-type chords and arpeggios ring as if the pedal were down through each chord: every note is held until
 * the next chord change, and none rings into it (perform lifts the pedal just before the change). Stabs stay short: their point is the silence
 * between them, and so do marcato chords. The ending already rings to the end.
 */
export function sustainPedal(ctx: ComposeContext, role: Role, notes: GridNote[]): GridNote[] {
  if (familyOf(ctx.instruments[role]) !== 'piano' || !['chords', 'arp', 'pad'].includes(role)) return notes;
  const style = role === 'chords' ? ctx.preset.chords : ctx.preset.playing?.[role as 'pad' | 'arp'];
  if (style !== undefined && SHORT_STYLES.has(style)) return notes;
  return notes.map((note) => {
    if (note.beat >= ctx.endingBeat - EPSILON) return note;
    const slot = chordAt(ctx.chords, note.beat);
    return { ...note, holdUntil: slot.beat + slot.beats };
  });
}

/** Shorter than this (seconds) a bowed note is a short stroke that could as well be plucked. */
const SHORT_NOTE = 0.25;
/** Sections at or below this energy are quiet enough for pizzicato. */
const QUIET = 0.55;

/**
 * Bowed strings: a quiet section whose part is an ostinato or mostly short notes is played pizzicato (its
 * short notes); sustained chords in the climax of an orchestral piece are bowed tremolo; the rest is legato.
 */
export function bowing(ctx: ComposeContext, role: Role, notes: GridNote[]): GridNote[] {
  if (!isBowed(ctx.instruments[role])) return notes;
  // The prompt's own way of playing ("the cello plays pizzicato") holds for the whole part.
  const asked = ctx.spec.articulations?.[role];
  if (asked)
    return notes.map((note) => (note.beat >= ctx.endingBeat - EPSILON ? note : { ...note, articulation: asked }));
  if (role === 'lead' || role === 'bass') return notes;
  const secondsPerBeat = 60 / ctx.bpm;
  const ostinato = role === 'chords' && ctx.preset.chords === 'ostinato';
  const orchestral = ctx.preset.form === 'orchestral';
  const plucked = new Set(
    ctx.sections.filter((section) => {
      if (section.energy > QUIET) return false;
      if (ostinato) return true;
      const inside = notes.filter(
        (n) => sectionAt(ctx.sections, n.beat) === section && n.beat < ctx.endingBeat - EPSILON,
      );
      return (
        inside.length >= 4 && inside.filter((n) => n.beats * secondsPerBeat < SHORT_NOTE).length >= inside.length * 0.7
      );
    }),
  );
  return notes.map((note) => {
    if (note.beat >= ctx.endingBeat - EPSILON) return note;
    const section = sectionAt(ctx.sections, note.beat);
    const seconds = note.beats * secondsPerBeat;
    if (plucked.has(section) && (ostinato || seconds < SHORT_NOTE * 1.6)) return { ...note, articulation: 'pizzicato' };
    if (
      orchestral &&
      section.kind === 'climax' &&
      note.beats >= Math.min(2, ctx.beatsPerBar) - EPSILON &&
      seconds >= 0.8
    ) {
      return { ...note, articulation: 'tremolo' };
    }
    return note;
  });
}
