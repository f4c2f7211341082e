/**
 * A seamless loop's length: the requested duration moved to the nearest whole number of bars (at least one), so
 * the loop's end falls on a bar line and the music goes on into its start in time.
 */
import type { SongSpec, TraceEntry } from '../types.ts';

/** Whole bars nearest to `seconds` at the spec's tempo and meter, and their exact length in seconds. */
export function loopLength(seconds: number, bpm: number, beatsPerBar: number): { bars: number; seconds: number } {
  const barSeconds = (beatsPerBar * 60) / bpm;
  const bars = Math.max(1, Math.round(seconds / barSeconds));
  return { bars, seconds: bars * barSeconds };
}

/** The spec as a seamless loop: its duration a whole number of bars, said so in its trace. */
export function asLoop(spec: SongSpec): SongSpec {
  const { bars, seconds } = loopLength(spec.duration, spec.bpm, spec.meter.beatsPerBar);
  const entry: TraceEntry = {
    source: 'loop',
    effect: `a seamless loop of ${bars} bar${bars === 1 ? '' : 's'}: ${round3(seconds)} s (asked ${spec.duration} s), no intro or ending`,
  };
  return { ...spec, duration: seconds, loop: true, trace: [...spec.trace, entry] };
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
