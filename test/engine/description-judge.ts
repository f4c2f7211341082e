/**
 * What a musician expects of a description (a row of description-table.json), checked against the spec the engine
 * made of it: each expectation one check, with what the engine did instead when it fails.
 */
import { pulseBpm } from '../../engine/compose/meter.ts';
import type { Delivery, Mode, SongSpec } from '../../engine/types.ts';

export const POINTS = ['negation', 'only', 'tempo', 'evidence', 'recording', 'voice', 'timbre', 'genres'] as const;
export type Point = (typeof POINTS)[number];

export interface DescriptionRow {
  id: string;
  /** "written first" (the table the work was done against) or "held out" (written after, judged once). */
  set: 'written first' | 'held out';
  /** The parts of issue 24 the row exercises. */
  points: Point[];
  prompt: string;
  genre?: string | string[];
  /** Pulses a minute (dotted quarters in 6/8), as a listener taps them. */
  bpm?: [number, number];
  /** "dark" (minor family or dorian), "bright" (major, mixolydian, lydian) or an exact mode. */
  mode?: 'dark' | 'bright' | Mode;
  meter?: string;
  vocals?: boolean;
  voice?: 'female' | 'male';
  /** How the words are delivered ("rapped"), as the spec says. */
  delivery?: Delivery;
  /** A choir sings or holds the harmony. */
  choir?: boolean;
  child?: boolean;
  quality?: string | string[];
  /** Every instrument is one of these patches. */
  only?: string[];
  onlyRoles?: string[];
  noRoles?: string[];
  roles?: string[];
  /** Each item a patch, or a list of patches any of which will do. */
  has?: (string | string[])[];
  lacks?: string[];
  lead?: string[];
  /** Words some warning must mention. */
  warnings?: string[];
  /** Words some trace entry's source must hold (which words decided). */
  trace?: string[];
  lofi?: boolean;
  reverbAtLeast?: number;
  swingAtMost?: number;
  /** A known miss, with why: the row is expected to fail until it is fixed. */
  miss?: string;
}

export interface Check {
  what: string;
  ok: boolean;
  got: string;
}

/** The music of a spec without its words, what a listener hears: words about the recording must not change it. */
export const musicOf = (spec: SongSpec) => ({
  genre: spec.genre,
  bpm: spec.bpm,
  key: spec.key,
  instruments: spec.instruments,
  vocals: spec.vocals,
  effects: spec.effects,
  density: spec.density,
});

const DARK: readonly Mode[] = ['minor', 'harmonicMinor', 'phrygian', 'dorian'];
const BRIGHT: readonly Mode[] = ['major', 'mixolydian', 'lydian'];
const fold = (s: string) => s.toLowerCase().replace(/[-_/]+/g, ' ');

export function judge(row: DescriptionRow, spec: SongSpec): Check[] {
  const checks: Check[] = [];
  const add = (what: string, ok: boolean, got: unknown) => checks.push({ what, ok, got: String(got) });
  const instruments = spec.instruments.filter((i) => i.role !== 'vocal');
  const patches = instruments.map((i) => i.instrument);
  const list = patches.join(', ');
  const pulse = Math.round(pulseBpm(spec.bpm, spec.meter));
  const { vocals } = spec;
  const genres = [row.genre ?? []].flat();
  if (row.genre) add(`genre ${genres.join(' or ')}`, genres.includes(spec.genre), spec.genre);
  if (row.bpm) add(`${row.bpm[0]}–${row.bpm[1]} bpm`, pulse >= row.bpm[0] && pulse <= row.bpm[1], pulse);
  if (row.mode) {
    const allowed = row.mode === 'dark' ? DARK : row.mode === 'bright' ? BRIGHT : [row.mode];
    add(`a ${row.mode} mode`, allowed.includes(spec.key.mode), spec.key.mode);
  }
  const meter = `${spec.meter.beatsPerBar}/${spec.meter.beatUnit}`;
  if (row.meter) add(`in ${row.meter}`, meter === row.meter, meter);
  if (row.vocals !== undefined)
    add(`vocals ${row.vocals ? 'on' : 'off'}`, vocals.enabled === row.vocals, vocals.enabled);
  if (row.voice) add(`a ${row.voice} voice`, vocals.enabled && vocals.gender === row.voice, vocals.gender);
  if (row.delivery) add(`${row.delivery} words`, vocals.enabled && vocals.delivery === row.delivery, vocals.delivery);
  if (row.choir) add('a choir', patches.includes('choir') || vocals.choir === true, list);
  if (row.child) add("a child's voice", vocals.age === 'child', vocals.age);
  const qualities = [row.quality ?? []].flat();
  if (row.quality) add(`a ${qualities.join(' or ')} voice`, qualities.includes(vocals.quality ?? ''), vocals.quality);
  if (row.only)
    add(`only ${row.only.join(', ')}`, patches.length > 0 && patches.every((p) => row.only?.includes(p)), list);
  if (row.onlyRoles) {
    const roles = instruments.map((i) => i.role);
    add(
      `only ${row.onlyRoles.join(', ')}`,
      roles.every((r) => row.onlyRoles?.includes(r)),
      roles.join(', '),
    );
  }
  for (const role of row.noRoles ?? []) add(`no ${role}`, !instruments.some((i) => i.role === role), list);
  for (const role of row.roles ?? [])
    add(
      `a ${role} part`,
      instruments.some((i) => i.role === role),
      list,
    );
  for (const want of row.has ?? []) {
    const any = [want].flat();
    add(
      `plays ${any.join(' or ')}`,
      any.some((p) => patches.includes(p)),
      list,
    );
  }
  for (const patch of row.lacks ?? []) add(`no ${patch}`, !patches.includes(patch), list);
  if (row.lead) {
    const lead = instruments.find((i) => i.role === 'lead')?.instrument ?? 'none';
    add(`${row.lead.join(' or ')} leads`, row.lead.includes(lead), lead);
  }
  for (const word of row.warnings ?? []) {
    add(
      `a warning about "${word}"`,
      spec.warnings.some((w) => fold(w).includes(fold(word))),
      spec.warnings.join(' / '),
    );
  }
  for (const word of row.trace ?? []) {
    add(
      `the trace names "${word}"`,
      spec.trace.some((e) => fold(e.source).includes(fold(word))),
      '',
    );
  }
  if (row.lofi !== undefined)
    add(`lo-fi ${row.lofi ? 'on' : 'off'}`, spec.effects.lofi === row.lofi, spec.effects.lofi);
  if (row.reverbAtLeast !== undefined)
    add(`reverb ≥ ${row.reverbAtLeast}`, spec.effects.reverb >= row.reverbAtLeast, spec.effects.reverb);
  if (row.swingAtMost !== undefined) add(`swing ≤ ${row.swingAtMost}`, spec.swing <= row.swingAtMost, spec.swing);
  return checks;
}
