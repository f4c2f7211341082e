/**
 * Slides in a bass line heard in its audio (an 808's glide), measured cycle by cycle rather than by a pitch
 * tracker's windows: aubio's 2048-frame windows smear a 90 ms slide and report "slides" at the onsets and
 * releases of a flat sine. The line is low-passed by sox, each cycle's length read between upward zero crossings
 * (with hysteresis, so the 808's harmonics do not add crossings), and a glide is a move between two steady
 * pitches that passes through pitches in between, cycle after cycle, in one direction. A note that simply changes
 * pitch (or is struck again) jumps in one or two cycles. Moves of a fifth or more only: a smaller step whose
 * release overlaps the next note beats with it into cycles that read as in between.
 */
import { run } from './exec.ts';
import { monoMix, readWav } from './wav.ts';

export interface Cycle {
  /** Seconds, at the cycle's end. */
  time: number;
  /** Pitch of the cycle (fractional MIDI). */
  midi: number;
}

export interface Glide {
  time: number;
  from: number;
  to: number;
  /** Cycles heard strictly between the two pitches. */
  between: number;
}

/** A cycle this far (semitones) from a steady run's pitch ends the run. */
const STEADY_SEMITONES = 0.35;
/** Cycles that make a pitch steady. */
const STEADY_CYCLES = 4;
/** A cycle this far from both steady pitches is heard between them. */
const BETWEEN_SEMITONES = 1;
/** Cycles heard between that make a glide: a step whose release overlaps the next note leaves one or two. */
const MIN_BETWEEN = 3;
/** Smallest move counted, and the longest a glide may take between the steady pitches. */
const MIN_MOVE = 7;
const MAX_GAP_SECONDS = 0.25;

/**
 * Pitch of each cycle of a low, near-sine signal, over it and the cycle before: where a note's release overlaps
 * the next note the two tones make cycles alternately long and short, and a pair of them reads the new pitch.
 * Quiet stretches (under -40 dB of the peak) are skipped.
 */
export function cyclesOf(signal: Float32Array, sampleRate: number): Cycle[] {
  let peak = 0;
  for (const x of signal) peak = Math.max(peak, Math.abs(x));
  const floor = peak * 0.01;
  // Envelope over about 30 ms, for the crossing's hysteresis.
  const decay = Math.exp(-1 / (0.03 * sampleRate));
  let envelope = 0;
  let armed = false;
  // The last two upward crossings (frames), -1 before a quiet stretch ends.
  let last = -1,
    before = -1;
  const cycles: Cycle[] = [];
  for (let i = 1; i < signal.length; i++) {
    const x = signal[i] ?? 0;
    envelope = Math.max(Math.abs(x), envelope * decay);
    if (envelope < floor) {
      armed = false;
      last = -1;
      before = -1;
      continue;
    }
    if (x < -0.2 * envelope) armed = true;
    const previous = signal[i - 1] ?? 0;
    if (armed && previous < 0 && x >= 0) {
      const crossing = i - 1 + previous / (previous - x);
      if (before >= 0) {
        const hz = (2 * sampleRate) / (crossing - before);
        cycles.push({ time: crossing / sampleRate, midi: 69 + 12 * Math.log2(hz / 440) });
      }
      before = last;
      last = crossing;
      armed = false;
    }
  }
  return cycles;
}

interface Steady {
  first: number;
  last: number;
  midi: number;
}

function steadyRuns(cycles: readonly Cycle[]): Steady[] {
  const runs: Steady[] = [];
  let start = 0;
  for (let i = 1; i <= cycles.length; i++) {
    const anchor = cycles[start]?.midi ?? 0;
    if (i < cycles.length && Math.abs((cycles[i]?.midi ?? 0) - anchor) < STEADY_SEMITONES) continue;
    if (i - start >= STEADY_CYCLES) {
      const pitches = cycles.slice(start, i).map((c) => c.midi);
      runs.push({ first: start, last: i - 1, midi: pitches.reduce((a, b) => a + b, 0) / pitches.length });
    }
    start = i;
  }
  return runs;
}

/** The glides between steady pitches in a run of cycles. */
export function glidesOf(cycles: readonly Cycle[]): Glide[] {
  const runs = steadyRuns(cycles);
  const glides: Glide[] = [];
  for (let r = 1; r < runs.length; r++) {
    const a = runs[r - 1]!,
      b = runs[r]!;
    const move = b.midi - a.midi;
    const endA = cycles[a.last]!.time,
      startB = cycles[b.first]!.time;
    if (Math.abs(move) < MIN_MOVE || startB - endA > MAX_GAP_SECONDS) continue;
    const direction = Math.sign(move);
    const inside = cycles
      .slice(a.last + 1, b.first)
      .map((c) => (c.midi - a.midi) * direction)
      .filter((d) => d > BETWEEN_SEMITONES && d < Math.abs(move) - BETWEEN_SEMITONES);
    const onward = inside.every((d, i) => i === 0 || d >= (inside[i - 1] ?? 0) - STEADY_SEMITONES);
    if (inside.length >= MIN_BETWEEN && onward)
      glides.push({ time: endA, from: a.midi, to: b.midi, between: inside.length });
  }
  return glides;
}

/** The glides heard in a WAV file's bass (both channels, low-passed at `cutoff` Hz by sox). */
export async function glidesIn(path: string, cutoff = 200): Promise<{ glides: Glide[]; cycles: Cycle[] }> {
  const low = `${path.replace(/\.wav$/, '')}-below-${cutoff}.wav`;
  await run('sox', [path, low, 'remix', '-', 'sinc', `-${cutoff}`]);
  const audio = await readWav(low);
  const cycles = cyclesOf(monoMix(audio), audio.sampleRate);
  return { glides: glidesOf(cycles), cycles };
}
