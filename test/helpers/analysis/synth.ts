/**
 * Synthetic test signals made with sox, with known ground truth (tempo, key, level, hits), on which
 * the analysers are validated. All 44.1 kHz; 16-bit stereo unless stated, like the engine's output.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from './exec.ts';

const RATE = ['-r', '44100'];
const OUT = ['-r', '44100', '-b', '16', '-c', '2'];

export interface SynthDir {
  dir: string;
  path(name: string): string;
  cleanup(): Promise<void>;
}

export async function synthDir(prefix = 'tunesmith-analysis-'): Promise<SynthDir> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, path: (name) => join(dir, name), cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Seconds of stereo digital silence. */
export async function silence(out: string, seconds: number): Promise<string> {
  // -D: no dither, or sox would fill the "silence" with ±1 LSB noise when writing 16 bits.
  await run('sox', ['-n', ...OUT, '-D', out, 'trim', '0', String(seconds)]);
  return out;
}

/** A stereo sine with the given peak level in dBFS (same signal in both channels). */
export async function sine(out: string, seconds: number, hz: number, peakDb: number): Promise<string> {
  await run('sox', [
    '-n',
    ...OUT,
    out,
    'synth',
    String(seconds),
    'sine',
    String(hz),
    'vol',
    String(10 ** (peakDb / 20)),
  ]);
  return out;
}

/** Stereo white noise at a gain in dB. */
export async function noise(out: string, seconds: number, gainDb = -12): Promise<string> {
  await run('sox', ['-n', ...OUT, out, 'synth', String(seconds), 'whitenoise', 'gain', String(gainDb)]);
  return out;
}

/**
 * A drum loop: a pitch-swept sine kick on every beat and, if `hats`, a short high-passed noise hat on
 * every off-beat eighth, `beats` beats at `bpm`. Exactly one beat of audio is built and repeated, so
 * the tempo is exact.
 */
export async function drumLoop(
  out: string,
  bpm: number,
  beats: number,
  opts: { hats?: boolean; kick?: boolean } = {},
): Promise<string> {
  const tmp = await synthDir('tunesmith-drums-');
  try {
    const beat = 60 / bpm;
    const half = beat / 2;
    const kick = tmp.path('kick.wav');
    const hat = tmp.path('hat.wav');
    const one = tmp.path('beat.wav');
    const parts: string[] = [];
    if (opts.kick ?? true) {
      await run('sox', [
        '-n',
        ...RATE,
        '-c',
        '1',
        kick,
        'synth',
        '0.12',
        'sine',
        '150-50',
        'fade',
        '0',
        '0.12',
        '0.1',
        'pad',
        '0',
        String(beat - 0.12),
      ]);
      parts.push(kick);
    }
    if (opts.hats ?? true) {
      await run('sox', [
        '-n',
        ...RATE,
        '-c',
        '1',
        hat,
        'synth',
        '0.04',
        'whitenoise',
        'highpass',
        '6000',
        'fade',
        '0',
        '0.04',
        '0.035',
        'gain',
        '-6',
        'pad',
        String(half),
        String(beat - half - 0.04),
      ]);
      parts.push(hat);
    }
    if (parts.length === 0) throw new Error('drumLoop needs a kick or hats');
    if (parts.length === 1) await run('sox', [parts[0]!, one]);
    else await run('sox', ['-m', ...parts, one]);
    await run('sox', [one, ...OUT, out, 'repeat', String(beats - 1)]);
    return out;
  } finally {
    await tmp.cleanup();
  }
}

const NOTE_RE = /^([A-G][b#]?)(-?\d)$/;

/** "C4" → 60, "Eb3" → 51. */
export function midiOf(note: string): number {
  const m = NOTE_RE.exec(note);
  if (!m) throw new Error(`bad note ${note}`);
  const base = { C: 0, D: 2, E: 4, F: 5, G: 7, A: 9, B: 11 }[m[1]![0] as 'C'];
  const shift = m[1]![1] === '#' ? 1 : m[1]![1] === 'b' ? -1 : 0;
  return 12 * (Number(m[2]) + 1) + base + shift;
}

/**
 * A chord progression, one chord per `secondsPerChord`, each chord a list of note names ("C3", "Eb4")
 * played as decaying plucked strings (Karplus–Strong: a noise-excited attack, like a real instrument).
 * `repeats` loops the progression.
 */
export async function chordLoop(
  out: string,
  chords: string[][],
  secondsPerChord: number,
  repeats: number,
): Promise<string> {
  const tmp = await synthDir('tunesmith-chords-');
  try {
    const files: string[] = [];
    for (const [i, chord] of chords.entries()) {
      for (const n of chord) if (!NOTE_RE.test(n)) throw new Error(`bad note ${n}`);
      const file = tmp.path(`chord${i}.wav`);
      // One synth per note makes one channel per note; `remix -` sums them to mono.
      const synth = chord.flatMap((n) => ['pluck', n]);
      await run('sox', [
        '-n',
        ...RATE,
        '-c',
        String(chord.length),
        file,
        'synth',
        String(secondsPerChord),
        ...synth,
        'remix',
        '-',
        'norm',
        '-6',
      ]);
      files.push(file);
    }
    return await concatAndLoop(tmp, files, out, repeats);
  } finally {
    await tmp.cleanup();
  }
}

/** Joins the pieces in order and writes them `repeats` times over to `out` (16-bit, like the engine). */
async function concatAndLoop(tmp: SynthDir, files: string[], out: string, repeats: number): Promise<string> {
  const once = tmp.path('once.wav');
  await run('sox', [...files, once]);
  await run('sox', [once, ...OUT, out, 'repeat', String(repeats - 1)]);
  return out;
}

/**
 * A melody of single notes, `secondsPerNote` each, looped `repeats` times. 'sine' notes have a 5 ms
 * fade-in and a decay (a soft mallet-like tone); 'bandLimitedSaw' notes the same envelope on a saw
 * whose harmonics reach 16 kHz (a bright pitched attack with no noise); 'pluck' notes
 * are Karplus–Strong strings, whose attack is a burst of white noise.
 */
export async function melody(
  out: string,
  notes: string[],
  secondsPerNote: number,
  repeats: number,
  timbre: 'sine' | 'bandLimitedSaw' | 'pluck' = 'sine',
): Promise<string> {
  const tmp = await synthDir('tunesmith-melody-');
  try {
    const files: string[] = [];
    for (const [i, n] of notes.entries()) {
      if (!NOTE_RE.test(n)) throw new Error(`bad note ${n}`);
      const file = tmp.path(`note${i}.wav`);
      const shape =
        timbre !== 'pluck' ? ['fade', 'q', '0.005', String(secondsPerNote), String(secondsPerNote * 0.8)] : [];
      if (timbre === 'bandLimitedSaw') {
        // Additive: harmonic k at 1/k up to 16 kHz, one sox channel each, summed by remix. (sox's own
        // sawtooth is not band-limited: its aliases fill the spectrum like noise.)
        const f0 = 440 * 2 ** ((midiOf(n) - 69) / 12);
        const count = Math.floor(16000 / f0);
        const sines = Array.from({ length: count }, (_, k) => ['sine', String(f0 * (k + 1))]).flat();
        const weights = Array.from({ length: count }, (_, k) => `${k + 1}v${(1 / (k + 1)).toFixed(5)}`).join(',');
        await run('sox', [
          ...RATE,
          '-c',
          String(count),
          '-n',
          '-c',
          '1',
          file,
          'synth',
          String(secondsPerNote),
          ...sines,
          'remix',
          weights,
          ...shape,
          'norm',
          '-6',
        ]);
      } else {
        await run('sox', [
          '-n',
          ...RATE,
          '-c',
          '1',
          file,
          'synth',
          String(secondsPerNote),
          timbre,
          n,
          ...shape,
          'gain',
          '-6',
        ]);
      }
      files.push(file);
    }
    return await concatAndLoop(tmp, files, out, repeats);
  } finally {
    await tmp.cleanup();
  }
}

/** Mixes WAVs (same rate/channels) into one, each scaled by 1/n to avoid clipping. */
export async function mix(out: string, inputs: string[]): Promise<string> {
  await run('sox', ['-m', ...inputs, ...OUT, out]);
  return out;
}
