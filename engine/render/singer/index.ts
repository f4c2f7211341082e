/**
 * The singer: a procedural singing voice (a Klatt-style formant synthesizer) that sings SungNotes into a
 * mono buffer inside the render worker. See plan.ts (phone timing), pitch.ts (f0), synth.ts (the sound).
 */
import type { Random } from '../../random.ts';
import type { Phone, SungNote } from '../../types.ts';
import { planVoice, type PhoneKind } from './plan.ts';
import { renderVoice } from './synth.ts';

export interface SingOptions {
  gender: 'female' | 'male';
  sampleRate: number;
  frames: number;
  random: Random;
}

export interface PhonemeEvent {
  phone: Phone;
  start: number;
  end: number;
  midi: number;
  kind: PhoneKind;
}

/** Comfortable MIDI ranges the composer should write in. */
export const VOICE_RANGE: Record<'female' | 'male', { low: number; high: number }> = {
  male: { low: 45, high: 64 },
  female: { low: 57, high: 74 },
};

/** Peak of the output for a line whose loudest note has velocity REFERENCE_VELOCITY: −6 dBFS. */
const REFERENCE_PEAK = 0.5;
const REFERENCE_VELOCITY = 0.8;
const MAX_PEAK = 0.7;
/** Notes this close are still one after the other (a legato line touches end to start). */
const OVERLAP_TOLERANCE = 0.005;

/**
 * Splits notes into monophonic voices: the lead line stays one voice; overlapping backing notes (chords) go
 * to as many voices as the densest chord needs, each note to the first voice that is free.
 */
export function splitVoices(notes: readonly SungNote[]): SungNote[][] {
  const voices: SungNote[][] = [];
  const sorted = [...notes].sort((a, b) => a.time - b.time || b.midi - a.midi);
  for (const note of sorted) {
    const free = voices.find((v) => {
      const last = v[v.length - 1];
      return !last || last.time + last.duration <= note.time + OVERLAP_TOLERANCE;
    });
    if (free) free.push(note);
    else voices.push([note]);
  }
  return voices;
}

/** The phoneme plan sing() follows: each phone's start/end seconds and target pitch, in time order. */
export function phonemeTimeline(notes: readonly SungNote[], gender: 'female' | 'male'): PhonemeEvent[] {
  return splitVoices(notes)
    .flatMap((voice) => planVoice(voice, gender).segments)
    .map(({ phone, start, end, midi, kind }) => ({ phone, start, end, midi, kind }))
    .sort((a, b) => a.start - b.start);
}

/**
 * Sings the notes into a new mono buffer of options.frames frames: dry, peaking around −6 dBFS for velocity
 * ~0.8, deterministic for the same random seed. Overlapping notes are sung by separate voices, summed.
 */
export function sing(notes: readonly SungNote[], options: SingOptions): Float32Array {
  const out = new Float32Array(options.frames);
  const voices = splitVoices(notes);
  for (const [i, voice] of voices.entries()) {
    renderVoice(
      planVoice(voice, options.gender),
      options.gender,
      options.sampleRate,
      options.random.fork(`voice${i}`),
      out,
    );
  }
  let peak = 0;
  for (let i = 0; i < out.length; i++) peak = Math.max(peak, Math.abs(out[i] ?? 0));
  if (peak === 0) return out;
  const loudest = notes.reduce((m, n) => Math.max(m, n.velocity), 0);
  const gain = Math.min(MAX_PEAK, (REFERENCE_PEAK * loudest) / REFERENCE_VELOCITY) / peak;
  for (let i = 0; i < out.length; i++) out[i] = (out[i] ?? 0) * gain;
  return out;
}
