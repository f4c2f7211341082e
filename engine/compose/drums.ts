/**
 * Drums from the preset's step grids: `half` in low-energy sections, `main` in high-energy ones, `fill` in the
 * last bar of every 8-bar phrase and before a lift, a dropped bar at loop edges (lo-fi), a crash on the first
 * beat of loud sections, a snare roll through builds, and one last hit on the final chord. Played by hands:
 * ghost notes on the snare where the groove is a drummer's, accented time-keeping, no two bars alike.
 */
import { at, defined } from '../checked.ts';
import { DRUM_MIDI, type Drum, type Preset } from '../types.ts';
import type { Random } from '../random.ts';
import { EPSILON, clamp, type ComposeContext, type GridNote, type PlannedSection } from './model.ts';
import { familyOf } from './instruments.ts';
import { meterName } from './meter.ts';
import { BACKBEAT, meterKit } from './meter-grooves.ts';

export type DrumGrid = Partial<Record<Drum, string>>;

/** Drums a laid-back groove plays late. */
const LAID_BACK = new Set<Drum>(['snare', 'clap', 'rim']);
/** The time-keepers: accented by where they fall in the beat. */
const TIME_KEEPERS = new Set<Drum>(['hat', 'openHat', 'ride', 'shaker']);
/** Velocity of a snare ghost note (before the hand's variation). */
const GHOST = 0.17;
type DrumKit = NonNullable<Preset['drums']>;

/** The kit's grooves, or the meter's own played on the kit's drums when the spec's meter is not the kit's. */
export function drumKitFor(ctx: ComposeContext, blend?: { preset: Preset; weight: number }): DrumKit {
  const owner = blend && blend.weight >= 0.5 && blend.preset.drums ? blend.preset : ctx.preset;
  // A style without drums that is asked for them (ambient "with drums") plays a plain backbeat.
  const kit = owner.drums ?? BACKBEAT;
  const kitMeter = owner.drums ? owner.meter : { beatsPerBar: 4, beatUnit: 4 };
  if (meterName(kitMeter) === meterName(ctx.spec.meter)) return kit;
  return meterKit(ctx.spec.meter, owner.drums) ?? kit;
}

const hasHits = (grid: DrumGrid) => Object.values(grid).some((p) => p !== undefined && /[1-9]/.test(p));

/** The grid each whole bar plays, or null for a bar without drums. Bars from the ending on are null. */
export function planDrumBars(ctx: ComposeContext, kit: DrumKit): (DrumGrid | null)[] {
  const bars: (DrumGrid | null)[] = [];
  const endingBar = Math.floor(ctx.endingBeat / ctx.beatsPerBar + EPSILON);
  ctx.sections.forEach((section, index) => {
    const next = ctx.sections[index + 1];
    const wholeBars = Math.ceil(section.bars - EPSILON);
    for (let b = 0; b < wholeBars; b++) {
      const bar = section.startBar + b;
      if (!section.roles.has('drums') || bar >= endingBar) {
        bars.push(null);
        continue;
      }
      const last = b === wholeBars - 1;
      const base = section.energy >= 0.6 ? kit.main : kit.half;
      if (ctx.preset.form === 'loop' && last && next && next.label !== section.label && section.kind !== 'intro') {
        bars.push(null); // the lo-fi drop: the beat stops for a bar and comes back with the new section
      } else if (((last && next && next.energy > section.energy) || (b + 1) % 8 === 0) && hasHits(kit.fill)) {
        bars.push(kit.fill);
      } else {
        bars.push(hasHits(base) ? base : kit.main);
      }
    }
  });
  return bars;
}

/**
 * The subdivision swing acts on, in quarter notes: sixteenths when the groove's time-keeper (hats, ride,
 * shaker) plays sixteenths, otherwise eighths, so the swing is heard on the line that carries the pulse.
 */
export function swingUnitFor(kit: DrumKit, beatsPerBar: number, quarterPerBeat: number): number {
  for (const drum of ['hat', 'ride', 'shaker', 'openHat'] as const) {
    for (const hit of hitsOf(kit.main, drum, kit.stepsPerBar, beatsPerBar)) {
      const sixteenths = hit.beat * quarterPerBeat * 4;
      if (Math.abs(sixteenths - Math.round(sixteenths)) < EPSILON && Math.round(sixteenths) % 2 === 1) return 0.25;
    }
  }
  return 0.5;
}

/** Beats (within the bar) where `drum` hits in `grid`, with the velocity digit as 0–1. */
export function hitsOf(
  grid: DrumGrid,
  drum: Drum,
  stepsPerBar: number,
  beatsPerBar: number,
): { beat: number; level: number }[] {
  const pattern = grid[drum];
  if (!pattern) return [];
  const hits: { beat: number; level: number }[] = [];
  for (let step = 0; step < pattern.length; step++) {
    const c = at(pattern, step);
    if (c !== '.') hits.push({ beat: (step * beatsPerBar) / stepsPerBar, level: Number(c) / 9 });
  }
  return hits;
}

export function composeDrums(
  ctx: ComposeContext,
  kit: DrumKit,
  bars: readonly (DrumGrid | null)[],
  random: Random,
): GridNote[] {
  const notes: GridNote[] = [];
  const { beatsPerBar } = ctx;
  const stepBeats = beatsPerBar / kit.stepsPerBar;
  // A swung groove drags its backbeat a little behind the grid (the lo-fi "lazy snare").
  const layBack = ctx.spec.swing >= 0.4 ? 0.006 + 0.012 * (ctx.spec.swing - 0.4) : 0;
  const played = familyOf(ctx.instruments.drums) === 'acousticKit';
  const ghostsFor = ghostPlanner(ctx, kit, random.fork('ghosts'));
  const hands = random.fork('hands');
  const rolls = random.fork('rolls');
  const pickups = random.fork('pickups');
  // Triplet pickups where the groove counts a beat in three (the blues' 12-step shuffle).
  const pickupStep = kit.stepsPerBar % (3 * beatsPerBar) === 0 ? 1 / 3 : 0.25;
  // The drummer's dynamics drift slowly from bar to bar, so no two bars repeat the same velocities.
  let drift = 0;
  bars.forEach((grid, bar) => {
    if (!grid) return;
    const section = defined(
      ctx.sections.find((s) => bar >= s.startBar && bar < s.startBar + s.bars),
      'a section holding the bar',
    );
    const level = 0.72 + 0.32 * section.energy + 0.12 * ctx.spec.arousal;
    drift = clamp(drift * 0.6 + hands.gaussian() * (played ? 0.03 : 0.012), -0.06, 0.06);
    const pickup =
      kit.pickups &&
      grid !== kit.fill &&
      (bar - section.startBar + 1) % 4 === 0 &&
      bars[bar + 1] &&
      pickups.chance(kit.pickups * (0.6 + 0.4 * section.energy))
        ? pickupFill(beatsPerBar, pickupStep, played, pickups)
        : null;
    if (pickup) {
      for (const hit of pickup.hits)
        notes.push({
          beat: bar * beatsPerBar + hit.beat,
          beats: pickupStep / 2,
          midi: DRUM_MIDI[hit.drum],
          velocity: clamp(level * hit.level * (1 + drift), 0.05, 1),
        });
      // The phrase the pickup leads into opens on a crash.
      notes.push({
        beat: (bar + 1) * beatsPerBar,
        beats: 1,
        midi: DRUM_MIDI.crash,
        velocity: clamp(0.5 + 0.3 * section.energy, 0, 1),
      });
    }
    const roll =
      kit.rolls && grid.hat && rolls.chance(kit.rolls * (0.5 + section.energy)) ? hatRoll(beatsPerBar, rolls) : null;
    if (roll) {
      for (const [k, beat] of roll.beats.entries())
        notes.push({
          beat: bar * beatsPerBar + beat,
          beats: roll.step / 2,
          midi: DRUM_MIDI.hat,
          velocity: clamp(
            level * (0.45 + 0.4 * (roll.rising ? k / roll.beats.length : k % 2 === 0 ? 1 : 0.6)),
            0.05,
            1,
          ),
        });
    }
    for (const drum of Object.keys(grid) as Drum[]) {
      const lazy = LAID_BACK.has(drum) ? layBack : 0;
      for (const hit of hitsOf(grid, drum, kit.stepsPerBar, beatsPerBar)) {
        if (roll && drum === 'hat' && hit.beat >= roll.from - EPSILON && hit.beat < roll.to - EPSILON) continue;
        // The pickup takes the drummer's hands: time-keeping and backbeat rest under it, the kick plays on.
        if (pickup && drum !== 'kick' && hit.beat >= pickup.from - EPSILON) continue;
        const accent = TIME_KEEPERS.has(drum) ? timeAccent(hit.beat) : 1;
        const note: GridNote = {
          beat: bar * beatsPerBar + hit.beat,
          beats: stepBeats / 2, // drums are one-shots: the length only keeps MIDI tidy
          midi: DRUM_MIDI[drum],
          velocity: clamp(hit.level * level * accent * (1 + drift) * random.range(0.9, 1), 0.05, 1),
        };
        notes.push(lazy > 0 ? { ...note, offset: lazy } : note);
      }
    }
    if (grid === kit.fill) return;
    for (const beat of ghostsFor(section, grid, hands)) {
      if (pickup && beat >= pickup.from - EPSILON) continue;
      const ghost: GridNote = {
        beat: bar * beatsPerBar + beat,
        beats: stepBeats / 2,
        midi: DRUM_MIDI.snare,
        velocity: clamp(GHOST * hands.range(0.7, 1.25), 0.06, 0.28),
      };
      notes.push(layBack > 0 ? { ...ghost, offset: layBack } : ghost);
    }
  });

  ctx.sections.forEach((section, index) => {
    if (!section.roles.has('drums') || section.beat >= ctx.endingBeat - EPSILON) return;
    if (section.energy >= 0.75 && index > 0) {
      notes.push({
        beat: section.beat,
        beats: 1,
        midi: DRUM_MIDI.crash,
        velocity: clamp(0.6 + 0.3 * section.energy, 0, 1),
      });
    }
    if (section.kind === 'build')
      notes.push(
        ...snareRoll(
          section.beat,
          Math.min(section.beats, ctx.endingBeat - section.beat),
          beatsPerBar,
          4 / ctx.spec.meter.beatUnit,
        ),
      );
  });

  const last = at(ctx.sections, ctx.sections.length - 1);
  // A seamless loop has no ending (endingBeat is its end): its last bar runs into its first.
  if (last.roles.has('drums') && ctx.endingBeat > 0 && ctx.endingBeat < ctx.totalBeats - EPSILON) {
    // The last hit: kick and crash on the final chord, left to ring.
    const velocity = clamp(0.55 + 0.25 * ctx.spec.arousal, 0.3, 0.85);
    notes.push({ beat: ctx.endingBeat, beats: beatsPerBar, midi: DRUM_MIDI.kick, velocity });
    // A beat that stops (boom bap) ends on the kick alone.
    if (ctx.preset.ending !== 'stop')
      notes.push({ beat: ctx.endingBeat, beats: beatsPerBar, midi: DRUM_MIDI.crash, velocity: velocity * 0.9 });
  }
  return dedupe(notes);
}

/**
 * A trap hat roll: half a beat or a whole beat (late in the bar, where producers put them) of 32nds or
 * sixteenth triplets, rising in level or pulsing.
 */
function hatRoll(
  beatsPerBar: number,
  random: Random,
): { from: number; to: number; step: number; beats: number[]; rising: boolean } {
  const step = random.weighted([1 / 8, 1 / 6, 1 / 12], [5, 4, 1]);
  const length = random.chance(0.6) ? 0.5 : 1;
  const from = random.weighted([beatsPerBar - length, beatsPerBar / 2 - length, beatsPerBar - 2 * length], [5, 3, 2]);
  const beats: number[] = [];
  for (let beat = from; beat < from + length - EPSILON; beat += step) beats.push(beat);
  return { from, to: from + length, step, beats, rising: random.chance(0.5) };
}

/** A pickup's figures, in steps back from the bar's end: a drum and a level (0–1) per step, rising into the next bar. */
const PICKUPS: { drum: Drum; level: number }[][] = [
  // Four (or three) strokes on the snare, crescendo.
  [
    { drum: 'snare', level: 0.55 },
    { drum: 'snare', level: 0.65 },
    { drum: 'snare', level: 0.75 },
    { drum: 'snare', level: 0.9 },
  ],
  // Down the kit: snare, snare, high tom, low tom.
  [
    { drum: 'snare', level: 0.7 },
    { drum: 'snare', level: 0.6 },
    { drum: 'tomHigh', level: 0.8 },
    { drum: 'tomLow', level: 0.9 },
  ],
  // Snare, a ghost, snare, then snare and kick together.
  [
    { drum: 'snare', level: 0.85 },
    { drum: 'snare', level: 0.5 },
    { drum: 'snare', level: 0.9 },
    { drum: 'kick', level: 0.8 },
  ],
];

/**
 * A pickup over the bar's last beat: one of PICKUPS on its sixteenths (or triplets), with the beat it starts on.
 * A programmed kit keeps to the snare (its synthesized toms sound like hand drums).
 */
function pickupFill(
  beatsPerBar: number,
  step: number,
  played: boolean,
  random: Random,
): { from: number; hits: { beat: number; drum: Drum; level: number }[] } {
  const figure = random.pick(
    played ? PICKUPS : PICKUPS.filter((f) => !f.some((stroke) => stroke.drum.startsWith('tom'))),
  );
  const count = Math.round(1 / step);
  const from = beatsPerBar - 1;
  // Triplets play the figure's first, third and last strokes.
  const strokes = count === 4 ? figure : [at(figure, 0), at(figure, 2), at(figure, 3)];
  const hits = strokes.map((stroke, k) => ({ beat: from + k * step, ...stroke }));
  // The third figure's kick sounds with the snare stroke before it.
  if (figure === PICKUPS[2]) hits.push({ beat: from + (count - 1) * step, drum: 'snare', level: 0.95 });
  return { from, hits };
}

/** Time-keepers lean on the beat: full on it, lighter on the off-beat eighth, lightest on the sixteenths between. */
function timeAccent(beatInBar: number): number {
  const within = beatInBar - Math.floor(beatInBar + EPSILON);
  if (within < EPSILON || within > 1 - EPSILON) return 1;
  return Math.abs(within - 0.5) < EPSILON ? 0.9 : 0.82;
}

/**
 * Where a section's ghost notes go: soft snare strokes between the backbeats, as drummers play in funk, soul,
 * hip-hop, rock and jazz grooves (never in programmed electronic grids or without a snare to ghost on). Each
 * section label keeps its places, each bar plays most of them, and the stroke before a backbeat is likeliest.
 * Swung grooves ghost on the swung eighths, straight ones on sixteenths.
 */
function ghostPlanner(
  ctx: ComposeContext,
  kit: DrumKit,
  random: Random,
): (section: PlannedSection, grid: DrumGrid, hands: Random) => number[] {
  const snared = [kit.main, kit.half].some((grid) => /[1-9]/.test(grid.snare ?? ''));
  if (
    familyOf(ctx.instruments.drums) !== 'acousticKit' ||
    ctx.preset.form === 'electronic' ||
    !snared ||
    ctx.instruments.drums === 'orchestralPerc'
  ) {
    return () => [];
  }
  const { beatsPerBar } = ctx;
  const stepBeats = beatsPerBar / kit.stepsPerBar;
  const swung = ctx.preset.swing >= 0.3 && swingUnitFor(kit, beatsPerBar, 4 / ctx.spec.meter.beatUnit) >= 0.5;
  const unit = Math.max(stepBeats, swung ? 0.5 : 0.25);
  const plans = new Map<string, number[]>();
  return (section, grid, hands) => {
    let plan = plans.get(section.label);
    if (!plan) {
      const taken = new Set<number>();
      for (const drum of ['snare', 'clap', 'rim'] as const)
        for (const hit of hitsOf(grid, drum, kit.stepsPerBar, beatsPerBar)) taken.add(Math.round(hit.beat / EPSILON));
      const backbeats = [...taken].map((t) => t * EPSILON);
      const candidates: number[] = [];
      const weights: number[] = [];
      for (let beat = unit; beat < beatsPerBar - EPSILON; beat += unit) {
        const onBeat = Math.abs(beat - Math.round(beat)) < EPSILON;
        const nearBackbeat = backbeats.some((b) => Math.abs(b - beat) < unit + EPSILON);
        if (
          onBeat ||
          taken.has(Math.round(beat / EPSILON)) ||
          backbeats.some((b) => beat > b && beat - b < unit + EPSILON)
        )
          continue;
        candidates.push(beat);
        weights.push(nearBackbeat ? 3 : Math.abs((beat % 1) - 0.5) < EPSILON ? 1.2 : 2);
      }
      const count = Math.min(candidates.length, Math.round(1 + 2.5 * section.energy) + random.int(-1, 0));
      plan = [];
      for (let k = 0; k < count; k++) {
        const pick = random.weighted(
          candidates.map((_, i) => i),
          weights,
        );
        plan.push(at(candidates, pick));
        weights[pick] = 0;
      }
      plan = plan.sort((a, b) => a - b);
      plans.set(section.label, plan);
    }
    return plan.filter(() => hands.chance(0.85));
  };
}

/** One hit per drum and grid position (a roll over a grid snare keeps the louder), sorted by time. */
function dedupe(notes: GridNote[]): GridNote[] {
  const byKey = new Map<number, GridNote>();
  for (const note of notes) {
    const key = Math.round(note.beat * 10000) * 128 + note.midi;
    const existing = byKey.get(key);
    if (!existing || existing.velocity < note.velocity) byKey.set(key, note);
  }
  return [...byKey.values()].sort((a, b) => a.beat - b.beat || a.midi - b.midi);
}

/** A build's snare roll: quarters, then eighths, then sixteenths (whatever note the meter counts), rising in velocity. */
function snareRoll(startBeat: number, beats: number, beatsPerBar: number, quarterPerBeat: number): GridNote[] {
  const notes: GridNote[] = [];
  const bars = Math.floor(beats / beatsPerBar + EPSILON);
  for (let b = 0; b < bars; b++) {
    const progress = (b + 1) / bars;
    const perQuarter = progress <= 0.5 ? 1 : progress <= 0.75 ? 2 : 4;
    const step = 1 / (perQuarter * quarterPerBeat);
    for (let i = 0; i * step < beatsPerBar - EPSILON; i++) {
      const within = i * step;
      notes.push({
        beat: startBeat + b * beatsPerBar + within,
        beats: step / 2,
        midi: DRUM_MIDI.snare,
        velocity: clamp(0.25 + 0.6 * ((b + within / beatsPerBar) / bars), 0, 1),
      });
    }
  }
  return notes;
}
