/**
 * A request's composition plan resolved against the interpreted tempo, meter and arrangement: lengths in whole
 * bars (seconds round to the nearest bar, reported in a warning when that changes them), an energy for every
 * section and the roles each plays. The track's duration becomes the plan's exact length in bars.
 *
 * Sections without a length share the bars the asked duration leaves. The whole bars nearest a duration near the
 * API's 30 s or 180 s can fall outside it (30 s is 29.4 s of whole bars at 98 bpm), so they are taken inside, the
 * choice said in the trace; a plan whose unsized sections have no room left is refused, not played longer.
 */
import {
  planKindOf,
  type InstrumentChoice,
  type Patch,
  type PlanSection,
  type ResolvedPlanSection,
  type Role,
} from '../types.ts';
import { RequestError } from '../errors.ts';
import { planKindEnergy } from '../compose/form.ts';
import { instrumentWord, roleWord } from './fields.ts';
import type { Lexicon } from '../lexicon/index.ts';

export interface ResolvedPlan {
  plan: ResolvedPlanSection[];
  /** Seconds: the plan's whole bars at the tempo. */
  duration: number;
  /** How the sections without a length were sized, for the trace; undefined when every section has one. */
  sizing?: string;
}

/** The lengths a track may have at the API: unsized sections keep an asked duration inside them. */
export const TRACK_SECONDS = { min: 30, max: 180 } as const;

interface Frame {
  /** SongSpec.bpm and meter: beats of the meter's beat unit. */
  bpm: number;
  beatsPerBar: number;
  instruments: readonly InstrumentChoice[];
  /** Seconds the request asked for: what sections without a length share. */
  duration: number;
}

const round2 = (x: number): number => Math.round(x * 100) / 100;
const round1 = (x: number): number => Math.round(x * 10) / 10;

export function resolvePlan(
  sections: readonly PlanSection[],
  frame: Frame,
  lexicon: Lexicon,
  warnings: string[],
): ResolvedPlan {
  if (sections.length === 0) throw new RequestError('A composition plan needs at least one section.');
  const secondsPerBar = (frame.beatsPerBar * 60) / frame.bpm;
  const asked = sections.map((section, i) => {
    if (section.bars !== undefined) return section.bars;
    if (section.seconds === undefined) return undefined;
    const bars = Math.max(1, Math.round(section.seconds / secondsPerBar));
    if (Math.abs(bars * secondsPerBar - section.seconds) > 0.005) {
      warnings.push(
        `Section ${i + 1} (${section.kind}): ${section.seconds} s is played as ${bars} bars, ${round2(bars * secondsPerBar)} s at this tempo (sections end on bar lines).`,
      );
    }
    return bars;
  });
  const open = asked.filter((bars) => bars === undefined).length;
  const fixed = asked.reduce<number>((sum, bars) => sum + (bars ?? 0), 0);
  const target = open === 0 ? { bars: fixed, why: '' } : unsizedTarget(frame.duration, secondsPerBar);
  if (open > 0 && fixed + open > target.bars) {
    const least = round1((fixed + open) * secondsPerBar);
    throw new RequestError(
      `The plan's ${open === 1 ? 'section' : `${open} sections`} without a length ${open === 1 ? 'has' : 'have'} no room in the track's ${round1(frame.duration)} s ("duration"): with at least one bar each, the plan lasts ${least} s at ${round1(frame.bpm)} bpm. Give a longer "duration" (the plan may be up to ${TRACK_SECONDS.max} s), fewer sections, or every section its "bars".`,
    );
  }
  // Sections without a length share the bars `duration` leaves, the first ones taking any bar left over.
  const left = target.bars - fixed;
  let given = 0;
  const plan = sections.map((section, i): ResolvedPlanSection => {
    const kind = planKindOf(section.kind);
    if (kind === undefined) throw new RequestError(`Section ${i + 1}: "${section.kind}" is not a section kind.`);
    let bars = asked[i];
    if (bars === undefined) {
      bars = Math.floor(left / open) + (given < left % open ? 1 : 0);
      given++;
    }
    return {
      kind,
      bars,
      energy: section.energy ?? planKindEnergy(kind),
      roles:
        section.instruments === undefined
          ? null
          : rolesOf(section.instruments, frame.instruments, lexicon, i, warnings),
      lyrics: section.lyrics?.trim() ? section.lyrics : null,
    };
  });
  const totalBars = plan.reduce((sum, s) => sum + s.bars, 0);
  const sizing =
    open === 0
      ? undefined
      : `${open === 1 ? 'the section' : `the ${open} sections`} without a length ${open === 1 ? 'takes' : 'share'} ${left} bars: the track is ${totalBars} bars, ${round1(totalBars * secondsPerBar)} s, ${target.why}`;
  return { plan, duration: totalBars * secondsPerBar, ...(sizing ? { sizing } : {}) };
}

/**
 * The whole bars a plan with unsized sections lasts: the nearest to the asked duration, or, when that would leave
 * the API's limits an asked duration is inside, the nearest inside them.
 */
function unsizedTarget(duration: number, secondsPerBar: number): { bars: number; why: string } {
  const nearest = Math.max(1, Math.round(duration / secondsPerBar));
  const asked = `${round1(duration)} s asked`;
  if (duration < TRACK_SECONDS.min || duration > TRACK_SECONDS.max)
    return { bars: nearest, why: `the whole bars nearest the ${asked}` };
  const least = Math.ceil(TRACK_SECONDS.min / secondsPerBar - 1e-9);
  const most = Math.floor(TRACK_SECONDS.max / secondsPerBar + 1e-9);
  if (nearest < least)
    return {
      bars: least,
      why: `the fewest whole bars that last ${TRACK_SECONDS.min} s (${nearest} bars, nearest the ${asked}, would be ${round1(nearest * secondsPerBar)} s)`,
    };
  if (nearest > most)
    return {
      bars: most,
      why: `the most whole bars within ${TRACK_SECONDS.max} s (${nearest} bars, nearest the ${asked}, would be ${round1(nearest * secondsPerBar)} s)`,
    };
  return { bars: nearest, why: `the whole bars nearest the ${asked}` };
}

/** Role words name their role; an instrument word names the role it plays in the arrangement (or would prefer). */
function rolesOf(
  names: readonly string[],
  arrangement: readonly InstrumentChoice[],
  lexicon: Lexicon,
  index: number,
  warnings: string[],
): Role[] {
  const roles = new Set<Role>();
  for (const name of names) {
    const role = roleWord(name);
    if (role) {
      roles.add(role);
      continue;
    }
    const entry = instrumentWord(lexicon, name);
    if (!entry)
      throw new RequestError(`Section ${index + 1}: "${name}" is not an instrument or role the engine knows.`);
    const playing = arrangement.find(
      (choice) => choice.instrument === entry.patch || entry.alike?.includes(choice.instrument as Patch),
    );
    const preferred = playing?.role ?? entry.roles.find((r) => arrangement.some((choice) => choice.role === r));
    if (preferred) roles.add(preferred);
    else
      warnings.push(
        `Section ${index + 1}: "${name}" is not in this track's arrangement, so it cannot play there (add it to "instruments").`,
      );
  }
  return [...roles];
}
