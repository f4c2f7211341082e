/** `tunesmith render --bpm --key --time-signature`: the API's musical fields as options, refused with the same rules. */
import { MAX_BPM, METERS, MIN_BPM, parseKeyName, parseMeter, type MusicalFields } from '../../engine/index.ts';
import { UsageError, text } from './usage.ts';

export const MUSICAL_OPTIONS = {
  bpm: { type: 'string' },
  key: { type: 'string' },
  'time-signature': { type: 'string' },
} as const;

export const MUSICAL_HELP = `  --bpm N            ${MIN_BPM}–${MAX_BPM} beats a minute of the pulse (dotted quarters in 6/8 and 12/8); wins over the prompt
  --key KEY          a tonic and a mode: "F# minor", "Bb major", "D dorian"; wins over the prompt
  --time-signature M one of ${METERS.join(', ')}; wins over the prompt`;

export function readMusicalOptions(values: Record<string, unknown>): MusicalFields | undefined {
  const music: MusicalFields = {};
  const bpmText = text(values.bpm as string | undefined);
  if (bpmText !== undefined) {
    const bpm = Number(bpmText);
    if (!Number.isFinite(bpm) || bpm < MIN_BPM || bpm > MAX_BPM)
      throw new UsageError(`--bpm expects a number from ${MIN_BPM} to ${MAX_BPM}, got "${bpmText}".`);
    music.bpm = bpm;
  }
  const key = text(values.key as string | undefined);
  if (key !== undefined) {
    if (!parseKeyName(key))
      throw new UsageError(`--key expects a tonic and a mode such as "F# minor" or "D dorian", got "${key}".`);
    music.key = key;
  }
  const meter = text(values['time-signature'] as string | undefined);
  if (meter !== undefined) {
    const parsed = parseMeter(meter);
    if (!parsed) throw new UsageError(`--time-signature expects one of ${METERS.join(', ')}, got "${meter}".`);
    music.timeSignature = `${parsed.beatsPerBar}/${parsed.beatUnit}`;
  }
  return Object.keys(music).length > 0 ? music : undefined;
}
