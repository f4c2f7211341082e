/**
 * Symbolic metrics over a composed Score (reference study 4.3-A). Pure functions, no engine imports beyond
 * types: they re-derive everything from the Score itself (notes, chord events, sections) so a test measures
 * the output rather than trusting the composer's own bookkeeping.
 *
 * Conventions: Note.beat and ChordEvent.beat are quarter-note beats; a "meter beat" is 4/beatUnit quarters.
 */
import type { ChordEvent, Note, Part, Score, Section } from '../../engine/types.ts';

const EPS = 1e-6;
const mod12 = (n: number) => ((n % 12) + 12) % 12;

/** Parts whose notes are pitches (not drum keys, not the texture bed's marker note). */
export function pitchedParts(score: Score): Part[] {
  return score.parts.filter((p) => p.role !== 'drums' && p.role !== 'texture');
}

export function part(score: Score, role: Part['role']): Part | undefined {
  return score.parts.find((p) => p.role === role);
}

/** The chord event sounding at a quarter-note beat (the last one past the end). */
export function chordAtBeat(score: Score, beat: number): ChordEvent {
  let found = score.chords[0]!;
  for (const chord of score.chords) if (chord.beat <= beat + EPS) found = chord;
  return found;
}

/** Share of pitched notes (all parts) whose pitch class is in the scale or in the chord sounding at it. */
export function inKeyOrChordRatio(score: Score): number {
  const notes = pitchedParts(score).flatMap((p) => p.notes);
  if (notes.length === 0) return 1;
  const ok = notes.filter(
    (n) => score.scale.includes(mod12(n.midi)) || chordAtBeat(score, n.beat).pitchClasses.includes(mod12(n.midi)),
  );
  return ok.length / notes.length;
}

function quarterPerMeterBeat(score: Score): number {
  return 4 / score.spec.meter.beatUnit;
}

/**
 * Strong beats: the downbeat of every bar, plus beat 3 in 4/4 and the dotted-quarter pulses of compound
 * meters (6/8, 12/8). Grid positions, before swing.
 */
export function isStrongBeat(score: Score, beat: number): boolean {
  const meterBeat = beat / quarterPerMeterBeat(score);
  if (Math.abs(meterBeat - Math.round(meterBeat)) > EPS) return false;
  const inBar = mod(Math.round(meterBeat), score.beatsPerBar);
  if (inBar === 0) return true;
  if (score.beatsPerBar === 4) return inBar === 2;
  if (score.beatsPerBar % 3 === 0 && score.beatsPerBar > 3) return inBar % 3 === 0;
  if (score.beatsPerBar % 2 === 0 && score.beatsPerBar > 4) return inBar % 2 === 0;
  return false;
}

function mod(n: number, m: number): number {
  return ((n % m) + m) % m;
}

/** Share of lead notes on strong beats that are tones of the chord sounding there (NaN with no such notes). */
export function strongBeatChordToneRatio(score: Score): number {
  const lead = part(score, 'lead');
  const strong = (lead?.notes ?? []).filter((n) => isStrongBeat(score, n.beat));
  if (strong.length === 0) return Number.NaN;
  return strong.filter((n) => chordAtBeat(score, n.beat).pitchClasses.includes(mod12(n.midi))).length / strong.length;
}

/** Lead pitches whose grid beat lies in [from, to) quarter beats, relative to `from`. */
export function leadPitchesBetween(score: Score, from: number, to: number): number[] {
  return (part(score, 'lead')?.notes ?? []).filter((n) => n.beat >= from - EPS && n.beat < to - EPS).map((n) => n.midi);
}

function sectionSpan(score: Score, section: Section): [number, number] {
  const index = score.sections.indexOf(section);
  const next = score.sections[index + 1];
  const end = next ? next.beat : ((score.duration * score.bpm) / 60) * quarterPerMeterBeat(score);
  return [section.beat, end];
}

/** Levenshtein distance between two sequences. */
export function editDistance(a: readonly number[], b: readonly number[]): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length]!;
}

/** 1 − normalized edit distance: 1 for identical sequences, 0 for nothing in common. */
export function sequenceSimilarity(a: readonly number[], b: readonly number[]): number {
  const longest = Math.max(a.length, b.length);
  return longest === 0 ? 1 : 1 - editDistance(a, b) / longest;
}

/**
 * Melody similarity of two sections: lead pitch sequences over the same stretch of each (the length of the
 * shorter section, stopping before `endBeat`, so the piece's ending does not count as a difference).
 */
export function sectionMelodySimilarity(score: Score, a: Section, b: Section, endBeat = Infinity): number {
  const [aStart, aEnd] = sectionSpan(score, a);
  const [bStart, bEnd] = sectionSpan(score, b);
  const length = Math.min(aEnd - aStart, bEnd - bStart, endBeat - aStart, endBeat - bStart);
  return sequenceSimilarity(
    leadPitchesBetween(score, aStart, aStart + length),
    leadPitchesBetween(score, bStart, bStart + length),
  );
}

/**
 * Parallel fifths/octaves between the bass and the top voice of the chords/pad at chord changes. The bass
 * voice is the lowest of the first bass notes inside each chord (the chords part's own lowest notes when
 * there is no bass part: a solo pianist's left hand); the top voice is the highest chords/pad note in it.
 */
export function parallelPerfectCount(score: Score): number {
  const bass = part(score, 'bass')?.notes ?? part(score, 'chords')?.notes ?? [];
  const upper = [...(part(score, 'chords')?.notes ?? []), ...(part(score, 'pad')?.notes ?? [])];
  if (bass.length === 0 || upper.length === 0) return 0;
  const outer = score.chords.map((chord) => {
    const inside = (n: Note) => n.beat >= chord.beat - EPS && n.beat < chord.beat + chord.beats - EPS;
    const bassNotes = bass.filter(inside);
    const firstBeat = Math.min(...bassNotes.map((n) => n.beat));
    const low = bassNotes.filter((n) => n.beat === firstBeat).reduce((m, n) => Math.min(m, n.midi), Infinity);
    const high = upper.filter(inside).reduce((m, n) => Math.max(m, n.midi), -Infinity);
    return Number.isFinite(low) && Number.isFinite(high) ? { low, high } : null;
  });
  let count = 0;
  for (let i = 1; i < outer.length; i++) {
    const a = outer[i - 1];
    const b = outer[i];
    if (!a || !b) continue;
    const lowMove = b.low - a.low;
    const highMove = b.high - a.high;
    if (lowMove === 0 || highMove === 0 || Math.sign(lowMove) !== Math.sign(highMove)) continue;
    const before = mod12(a.high - a.low);
    if (before === mod12(b.high - b.low) && (before === 0 || before === 7)) count++;
  }
  return count;
}

/** Latest end (seconds) of any note in the score. */
export function latestNoteEnd(score: Score): number {
  return Math.max(0, ...score.parts.flatMap((p) => p.notes.map((n) => n.time + n.duration)));
}

/** The lead's last note (by time). */
export function lastLeadNote(score: Score): Note | undefined {
  const notes = part(score, 'lead')?.notes ?? [];
  return notes.reduce<Note | undefined>((last, n) => (!last || n.time >= last.time ? n : last), undefined);
}

/** Mean velocity and notes per bar over every part, for the notes whose grid beat lies in the section. */
export function sectionActivity(score: Score, section: Section): { meanVelocity: number; notesPerBar: number } {
  const [start, end] = sectionSpan(score, section);
  const notes = score.parts.flatMap((p) => p.notes).filter((n) => n.beat >= start - EPS && n.beat < end - EPS);
  const meanVelocity = notes.length === 0 ? 0 : notes.reduce((s, n) => s + n.velocity, 0) / notes.length;
  return { meanVelocity, notesPerBar: notes.length / section.bars };
}

/**
 * Share of melodic leaps larger than 5 semitones that the next interval answers by turning back by a
 * smaller interval (Huron's post-skip reversal), within phrases (not across a section start or a bar
 * of silence). NaN when there are no such leaps.
 */
export function leapRecoveryRatio(score: Score): number {
  const notes = part(score, 'lead')?.notes ?? [];
  const secondsPerBar = (60 / score.bpm) * score.beatsPerBar;
  // Only notes of one phrase count: a silence of a bar or more, or a section start, separates phrases.
  const starts = score.sections.map((s) => s.beat);
  const joined = (a: Note, b: Note) =>
    b.time - (a.time + a.duration) < secondsPerBar && !starts.some((s) => a.beat < s - EPS && b.beat >= s - EPS);
  let leaps = 0;
  let recovered = 0;
  for (let i = 0; i + 2 < notes.length; i++) {
    if (!joined(notes[i]!, notes[i + 1]!) || !joined(notes[i + 1]!, notes[i + 2]!)) continue;
    const leap = notes[i + 1]!.midi - notes[i]!.midi;
    if (Math.abs(leap) <= 5) continue;
    leaps++;
    const next = notes[i + 2]!.midi - notes[i + 1]!.midi;
    if (Math.sign(next) === -Math.sign(leap) && Math.abs(next) < Math.abs(leap)) recovered++;
  }
  return leaps === 0 ? Number.NaN : recovered / leaps;
}

/** Largest interval between consecutive lead notes, in semitones. */
export function maxLeap(score: Score): number {
  const notes = part(score, 'lead')?.notes ?? [];
  let max = 0;
  for (let i = 1; i < notes.length; i++) max = Math.max(max, Math.abs(notes[i]!.midi - notes[i - 1]!.midi));
  return max;
}

/** Seconds from the grid position to the played time, per note: swing plus humanizing. */
export function timingOffsets(score: Score, notes: readonly Note[]): number[] {
  const secondsPerQuarter = 60 / score.bpm / quarterPerMeterBeat(score);
  return notes.map((n) => n.time - n.beat * secondsPerQuarter);
}

/** Mean of a list (NaN for none). */
export function mean(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length;
}

/**
 * Mean semitones each upper voice moves at a chord change: the voicings are the chords-part notes (or the
 * pad's when there is no chords part) struck on each chord's first beat; changes between voicings of
 * different sizes are skipped. NaN when nothing can be compared.
 */
export function meanVoiceMovement(score: Score): number {
  const upper = part(score, 'chords')?.notes.length ? part(score, 'chords')! : part(score, 'pad');
  if (!upper) return Number.NaN;
  // Without a bass part the chords part's lowest note is the bass line (a left hand), not an upper voice.
  const bassInside = !part(score, 'bass') && upper.role === 'chords';
  const voicings = score.chords.map((c) => {
    const notes = upper.notes
      .filter((n) => Math.abs(n.beat - c.beat) < EPS)
      .map((n) => n.midi)
      .sort((a, b) => a - b);
    return bassInside ? notes.slice(1) : notes;
  });
  const moves: number[] = [];
  for (let i = 1; i < voicings.length; i++) {
    const a = voicings[i - 1]!;
    const b = voicings[i]!;
    if (a.length === 0 || a.length !== b.length) continue;
    moves.push(a.reduce((sum, note, k) => sum + Math.abs(note - b[k]!), 0) / a.length);
  }
  return mean(moves);
}
