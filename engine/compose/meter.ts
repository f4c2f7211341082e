/**
 * How a bar is counted. A meter's beat unit (the eighth in 6/8) is what SongSpec.bpm counts; its pulse (the
 * dotted quarter in 6/8) is what a listener taps and what the API's `bpm` counts. The pulse starts are also
 * where a bar's weight falls: 3+2 in 5/4, 2+2+3 in 7/8.
 */
export interface Meter {
  beatsPerBar: number;
  beatUnit: number;
}

/** The meters the request field accepts: each has grooves of its own (meter-grooves.ts). */
export const METERS = ['3/4', '4/4', '5/4', '6/8', '7/8', '12/8'] as const;
export type MeterName = (typeof METERS)[number];

export const meterName = (meter: Meter): string => `${meter.beatsPerBar}/${meter.beatUnit}`;

export function parseMeter(text: string): Meter | null {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{1,2})\s*$/.exec(text);
  if (!match) return null;
  const meter = { beatsPerBar: Number(match[1]), beatUnit: Number(match[2]) };
  return (METERS as readonly string[]).includes(meterName(meter)) ? meter : null;
}

/** Compound meters (6/8, 9/8, 12/8) group their eighths in threes. */
const isCompound = (meter: Meter): boolean =>
  meter.beatUnit === 8 && meter.beatsPerBar % 3 === 0 && meter.beatsPerBar > 3;

/** Beat units in one pulse: 1 in x/4, 3 in compound x/8 (a dotted quarter), 2 in other x/8 (a quarter). */
export function unitsPerPulse(meter: Meter): number {
  if (meter.beatUnit !== 8) return 1;
  return isCompound(meter) ? 3 : 2;
}

/** SongSpec.bpm (beat units a minute) for a pulse tempo, and back. */
export const unitBpm = (pulseBpm: number, meter: Meter): number => pulseBpm * unitsPerPulse(meter);
export const pulseBpm = (unitBpm: number, meter: Meter): number => unitBpm / unitsPerPulse(meter);
