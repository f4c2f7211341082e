/** Pitch tracks from aubio (Debian aubio-tools), the singer's independent pitch analyser. */
import { run } from './exec.ts';

export interface PitchPoint {
  /** Seconds, as aubio reports the frame. */
  time: number;
  /** MIDI note number (fractional); 0 where aubio heard no pitch. */
  midi: number;
}

/** `aubio pitch -m <method> -u midi` over a WAV file. */
export async function aubioPitch(
  path: string,
  method: 'yinfft' | 'yin' | 'mcomb' | 'fcomb' | 'schmitt' = 'yinfft',
): Promise<PitchPoint[]> {
  const { stdout } = await run('aubio', ['pitch', '-m', method, '-u', 'midi', '-i', path]);
  return stdout
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter((cols) => cols.length === 2 && cols.every(Number.isFinite))
    .map(([time, midi]) => ({ time: time!, midi: midi! }));
}
