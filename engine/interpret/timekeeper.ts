/**
 * An explicit tempo is something to hear. A style with nothing that keeps time (no drums, its chords held, as
 * ambient's are) is given a soft eighth-note arpeggio at the asked bpm, so the tempo a caller set (to sync the
 * track to a video or a loop) can be found in it; without the field the style stays beatless.
 */
import type { Preset, Role, SongSpec, TraceEntry } from '../types.ts';

/** The arpeggio that keeps time: a soft synth pluck, at home among ambient's pads and bells. */
const TIMEKEEPER = 'pluck';

export function withTimekeeper(
  instruments: SongSpec['instruments'],
  excluded: readonly Role[],
  preset: Preset,
  bpm: number | undefined,
  trace: TraceEntry[],
): SongSpec['instruments'] {
  if (bpm === undefined || preset.drums !== null || preset.chords !== 'sustain') return instruments;
  if (excluded.includes('arp') || instruments.some((choice) => choice.role === 'arp' || choice.role === 'drums'))
    return instruments;
  trace.push({
    source: 'bpm field',
    effect: `arp ${TIMEKEEPER}: ${preset.name} has no beat, so a soft arpeggio keeps the asked ${bpm} bpm`,
  });
  return [...instruments, { role: 'arp', instrument: TIMEKEEPER }];
}
