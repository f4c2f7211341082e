/**
 * compose(spec) -> Score: stage 2 of the engine. Pure and deterministic: every decision domain draws from
 * its own seeded stream, so the same spec always gives the same score.
 *
 * Order: form -> harmony -> bass anchors -> voicings (avoiding parallels with those anchors) -> parts ->
 * swing and humanizing. Modules work in meter beats; this file converts to the Score's quarter-note beats.
 */
import { defined } from '../checked.ts';
import type { ChordEvent, Part, Preset, Role, Score, Section, SongSpec } from '../types.ts';
import { SilentTrackError, UnknownStyleError } from '../errors.ts';
import { getPreset } from '../presets.ts';
import { createRandom } from '../random.ts';
import { pitchClassOf } from '../theory/pitch.ts';
import { scaleOf } from '../theory/scales.ts';
import { composeBass, bassAnchors } from './bass.ts';
import { composeChords, composePad } from './comping.ts';
import { composeDrums, drumKitFor, planDrumBars, swingUnitFor } from './drums.ts';
import { SHORT_SONG_BARS, planForm, planFromSections, planKindRoles } from './form.ts';
import { planHarmony } from './harmony.ts';
import { feelFor, perform, swingDelay } from './humanize.ts';
import { composeMelody } from './melody.ts';
import { EPSILON, type ComposeContext, type GridNote } from './model.ts';
import { bowing, sustainPedal } from './technique.ts';
import { composeArp, composeTexture } from './texture.ts';
import { chordVoicings } from './voicing.ts';
import { assignGiven, composeVocal, sectionLyricLines, vocalSlots } from './vocal/index.ts';
import { raps, underTheRap } from './vocal/rap.ts';
import { parseLyrics } from '../lyrics/index.ts';

const ROLE_ORDER: Role[] = ['drums', 'bass', 'chords', 'pad', 'lead', 'arp', 'texture'];
const PAN: Record<Role, number> = {
  drums: 0,
  bass: 0,
  chords: -0.2,
  pad: 0.1,
  lead: 0.15,
  arp: 0.3,
  texture: 0,
  vocal: 0,
};
/** Notes must end this long before the track does, so the renderer's releases fit. */
const END_MARGIN = 0.05;

export interface Blend {
  preset: Preset;
  weight: number;
}

export function compose(spec: SongSpec): Score {
  const preset = spec.preset ?? getPreset(spec.genre);
  let blend: Blend | undefined;
  if (spec.blend && spec.blend.weight > 0) {
    try {
      blend = { preset: getPreset(spec.blend.genre), weight: spec.blend.weight };
    } catch (error) {
      if (!(error instanceof UnknownStyleError)) throw error;
    }
  }
  return composeWith(spec, preset, blend);
}

/** The arrangement: roles the spec asks for, minus exclusions; the vocal is rendered elsewhere. */
function arrangementRoles(spec: SongSpec): Set<Role> {
  const roles = new Set<Role>();
  for (const choice of spec.instruments) {
    if (choice.role !== 'vocal' && !spec.excluded.includes(choice.role)) roles.add(choice.role);
  }
  return roles;
}

/**
 * Refuses a spec whose track would be silent, saying why: no part plays and nothing is sung (every role excluded),
 * or every section of its plan names only parts the arrangement does not have. Cheap: nothing is composed.
 */
export function checkSound(spec: SongSpec): void {
  if (spec.vocals.enabled) return;
  const available = arrangementRoles(spec);
  if (available.size === 0) {
    const excluded = spec.excluded.length > 0 ? ` (left out: ${spec.excluded.join(', ')})` : '';
    throw new SilentTrackError(
      'exclude',
      `Nothing would play in this track: every part of it is left out${excluded} and it is not sung. Leave at least one part in (drop it from "exclude" or the prompt).`,
    );
  }
  if (!spec.plan) return;
  const playing = spec.plan.map((s) => planRoles(s.roles, s.kind, available));
  if (playing.some((roles) => roles.length > 0)) return;
  const has = ROLE_ORDER.filter((role) => available.has(role)).join(', ');
  throw new SilentTrackError(
    'sections',
    `Nothing would play in this track: its sections name only parts it does not have (it has ${has}). Name some of those in the sections' "instruments", or leave "instruments" out of a section to let its kind choose.`,
  );
}

/** The patch of each role (the last one named when a role is listed twice). */
function instrumentsOf(spec: SongSpec): Partial<Record<Role, string>> {
  const instruments: Partial<Record<Role, string>> = {};
  for (const choice of spec.instruments) instruments[choice.role] = choice.instrument;
  return instruments;
}

/** How long a stopping beat's last hit rings (Preset.ending "stop"). */
const STOP_SECONDS = 0.35;

/** The time frame of a track: its length in beats, where the final chord starts, and its sections. */
function frameOf(spec: SongSpec, preset: Pick<Preset, 'ending'>) {
  if (!(spec.duration > 0) || !(spec.bpm > 0) || !(spec.meter.beatsPerBar > 0)) {
    throw new RangeError('compose needs a positive duration, bpm and beatsPerBar');
  }
  const beatsPerBar = spec.meter.beatsPerBar;
  const roles = arrangementRoles(spec);
  // A loop's duration is a whole number of bars (interpret/loop.ts); rounded so float error cannot add a sliver.
  const exactBars = (spec.duration * spec.bpm) / 60 / beatsPerBar;
  const totalBars = spec.loop === true ? Math.round(exactBars) : exactBars;
  const totalBeats = spec.loop === true ? totalBars * beatsPerBar : (spec.duration * spec.bpm) / 60;
  const wholeBars = Math.floor(totalBars + EPSILON);
  // A seamless loop has no ending: its last bar leads into its first. A short track (a 30 s clip) holds its final
  // chord for one bar, not two, so the groove runs on until its last bar; a beat that stops does so in its last bar.
  const endingBars =
    spec.loop === true ? 0 : wholeBars >= SHORT_SONG_BARS && preset.ending !== 'stop' ? 2 : wholeBars >= 1 ? 1 : 0;
  const endingBeat = (wholeBars - endingBars) * beatsPerBar;
  const sections = spec.plan
    ? planFromSections(
        spec.plan,
        spec.plan.map((s) => planRoles(s.roles, s.kind, roles)),
        beatsPerBar,
      )
    : planForm(spec.form, totalBars, beatsPerBar, roles, spec.loop === true);
  return { beatsPerBar, roles, totalBeats, endingBeat, sections };
}

/** A plan section's roles within the arrangement: those it names (the vocal is the singer's), else its kind's. */
function planRoles(
  named: Role[] | null,
  kind: Parameters<typeof planKindRoles>[0],
  available: ReadonlySet<Role>,
): Role[] {
  if (named === null) return planKindRoles(kind, available);
  return named.filter((role) => available.has(role));
}

/**
 * Checks, without composing, that the spec's lyrics fit its sung sections; throws LyricsTooLongError saying how
 * many lines fit when they do not. Cheap enough for the service to call before it accepts a task.
 */
export function checkLyricsFit(spec: SongSpec): void {
  const planned = spec.plan?.some((s) => s.lyrics !== null) === true;
  if (!spec.vocals.enabled || (spec.lyrics === null && !planned)) return;
  const preset = spec.preset ?? getPreset(spec.genre);
  const { beatsPerBar, sections, endingBeat } = frameOf(spec, preset);
  const slots = vocalSlots({ bpm: spec.bpm, beatsPerBar, sections, endingBeat, preset, spec });
  if (planned) {
    sectionLyricLines(slots, sections, spec.duration);
    return;
  }
  if (spec.lyrics !== null) assignGiven(parseLyrics(spec.lyrics), slots, spec.duration);
}

/** compose() with the preset given: the testable core. */
export function composeWith(spec: SongSpec, preset: Preset, blend?: Blend): Score {
  const { beatsPerBar, roles, totalBeats, endingBeat, sections } = frameOf(spec, preset);
  const tonic = pitchClassOf(spec.key.tonic);
  const base = {
    spec,
    preset,
    bpm: spec.bpm,
    beatsPerBar,
    totalBeats,
    endingBeat,
    tonic,
    mode: spec.key.mode,
    scale: scaleOf(tonic, spec.key.mode),
    sections,
    roles,
    instruments: instrumentsOf(spec),
  };
  const chords = planHarmony(
    sections,
    {
      preset,
      blend,
      mode: spec.key.mode,
      tonic,
      bpm: spec.bpm,
      arousal: spec.arousal,
      beatsPerBar,
      totalBeats,
      endingBeat,
    },
    createRandom(spec.seed, 'harmony'),
  );
  const ctx: ComposeContext = { ...base, chords };

  const kit = drumKitFor(ctx, blend);
  const drumBars = planDrumBars(ctx, kit);
  const anchors = bassAnchors(ctx, preset.bass);
  const voicings = chordVoicings(chords, anchors, preset.melody.low, tonic);

  const generators: Record<Exclude<Role, 'vocal'>, () => GridNote[]> = {
    drums: () => composeDrums(ctx, kit, drumBars, createRandom(spec.seed, 'drums')),
    bass: () => composeBass(ctx, anchors, drumBars, kit.stepsPerBar, createRandom(spec.seed, 'bass')),
    chords: () => composeChords(ctx, voicings, anchors, createRandom(spec.seed, 'chords')),
    pad: () => {
      const style = preset.playing?.pad;
      return style
        ? composeChords(ctx, voicings, anchors, createRandom(spec.seed, 'pad'), 'pad', style)
        : composePad(ctx, voicings);
    },
    lead: () => composeMelody(ctx, createRandom(spec.seed, 'melody')),
    arp: () => {
      const style = preset.playing?.arp;
      return style
        ? composeChords(ctx, voicings, anchors, createRandom(spec.seed, 'arp'), 'arp', style)
        : composeArp(ctx, voicings);
    },
    texture: () => composeTexture(ctx),
  };

  // The final chord is released a little before the end (a third of the ending, 0.05–2 s) so its decay
  // and the reverb tail fit inside the requested duration.
  const endingSeconds = ((totalBeats - endingBeat) * 60) / spec.bpm;
  const endingTail = Math.min(2, Math.max(END_MARGIN, endingSeconds / 3));
  const electronic = preset.form === 'electronic';
  // Without a groove in the arrangement, slow pieces swing sixteenths and faster ones eighths.
  const swingUnit = roles.has('drums')
    ? swingUnitFor(kit, beatsPerBar, 4 / spec.meter.beatUnit)
    : (spec.bpm * 4) / spec.meter.beatUnit < 100
      ? 0.25
      : 0.5;
  const quarterPerBeat = 4 / spec.meter.beatUnit;
  const secondsPerBeat = 60 / spec.bpm;
  const vocal = composeVocal(
    ctx,
    {
      quarterPerBeat,
      seconds: (beat) =>
        beat * secondsPerBeat +
        swingDelay(beat * quarterPerBeat, {
          bpm: spec.bpm,
          beatUnit: spec.meter.beatUnit,
          swing: spec.swing,
          swingUnit,
        }),
    },
    createRandom(spec.seed, 'vocal'),
  );
  // Where the voice sings, the lead instrument rests (it keeps the intro, the outro and the gaps between sections);
  // under a rap the beat's melody plays on, softer.
  const rapped = Boolean(vocal) && raps(ctx);
  const sungSpans = vocal ? vocal.lines.map((line) => [line.start - 0.1, line.end + 0.1] as const) : [];
  const humanizeRandom = createRandom(spec.seed, 'humanize');
  const playedPad = preset.playing?.pad !== undefined;
  const parts: Part[] = [];
  for (const role of ROLE_ORDER) {
    if (!roles.has(role) || role === 'vocal') continue;
    const instrument = defined(ctx.instruments[role], `an instrument for the ${role}`);
    const grid = bowing(ctx, role, sustainPedal(ctx, role, generators[role as Exclude<Role, 'vocal'>]()));
    const notes = perform(
      grid,
      {
        bpm: spec.bpm,
        beatUnit: spec.meter.beatUnit,
        // Texture beds and pads do not swing; everything rhythmic does.
        swing: role === 'texture' || (role === 'pad' && !playedPad) ? 0 : spec.swing,
        swingUnit,
        // A pad that plays rhythm (horn stabs, the organ bubble) is timed as chords are, not loosely as a bed.
        ...feelFor(role === 'pad' && playedPad ? 'chords' : role, instrument, electronic),
        // A loop's notes may ring up to its end: their releases are carried round onto the start (render/seamless.ts).
        endLimit: spec.duration - (spec.loop === true ? 0 : END_MARGIN),
        ending: { from: endingBeat, limit: spec.duration - endingTail },
        monophonic: role === 'lead',
      },
      humanizeRandom.fork(role),
    );
    const sungKept =
      role !== 'lead' || sungSpans.length === 0
        ? notes
        : rapped
          ? underTheRap(notes, sungSpans)
          : notes.filter((n) => !sungSpans.some(([a, b]) => n.time + n.duration > a && n.time < b));
    // A beat that stops is cut after its last hit: the final chord is a stab, the texture (vinyl) runs on.
    const stopAt = endingBeat * quarterPerBeat - EPSILON;
    const kept =
      preset.ending === 'stop' && role !== 'texture'
        ? sungKept.map((n) => (n.beat >= stopAt ? { ...n, duration: Math.min(n.duration, STOP_SECONDS) } : n))
        : sungKept;
    const tone = preset.tone?.[role];
    parts.push({
      role,
      instrument,
      notes: kept,
      gainDb: preset.levels?.[role] ?? 0,
      pan: PAN[role],
      ...(tone ? { tone: { ...tone } } : {}),
    });
  }
  if (vocal) {
    const notes = vocal.notes.map(({ time, duration, midi, velocity, beat }) => ({
      time,
      duration,
      midi,
      velocity,
      beat,
    }));
    parts.push({ role: 'vocal', instrument: 'voice', notes, gainDb: 0, pan: 0 });
  }
  return {
    spec,
    bpm: spec.bpm,
    beatsPerBar,
    duration: spec.duration,
    sections: sections.map(
      (s): Section => ({
        kind: s.kind,
        label: s.label,
        startBar: s.startBar,
        bars: s.bars,
        beat: s.beat * quarterPerBeat,
        time: s.beat * secondsPerBeat,
        energy: s.energy,
        roles: ROLE_ORDER.filter((role) => s.roles.has(role)),
        ...(s.planKind ? { planKind: s.planKind } : {}),
        ...(s.lyrics ? { lyrics: s.lyrics } : {}),
      }),
    ),
    chords: chords.map(
      (c): ChordEvent => ({
        beat: c.beat * quarterPerBeat,
        beats: c.beats * quarterPerBeat,
        symbol: c.symbol,
        pitchClasses: [...c.chord.pitchClasses],
        root: c.chord.root,
      }),
    ),
    parts,
    scale: [...base.scale],
    vocal,
  };
}
