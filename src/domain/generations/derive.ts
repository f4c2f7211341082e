/**
 * A generation made from another (issue 16, items 4 and 5): extend continues a completed track past its last bar
 * line with new material and a new ending; remix redoes one of its sections. The new task is the source's own
 * request pinned to what the engine played (tempo, key, meter and the section plan, read from its metadata), so
 * the new render lands on the source's bar grid; the render job then splices it into the source's stored PCM, so
 * everything outside the changed region is the source's, sample for sample (engine/render/splice.ts).
 */
import { EngineError, planDuration, type PlanKind, type PlanReport, type PlanSection } from '../../../engine/index.ts';
import { GenerationStateError, ValidationError } from '../errors.ts';
import type { Generation, GenerationSource } from '../model.ts';
import type { GenerationInput } from './generations.ts';

export type SectionChanges = Pick<PlanSection, 'energy' | 'instruments' | 'lyrics'>;

/** What to make from a source, as the API's body says it (validated). */
export type Derivation =
  | { operation: 'extend'; seconds: number }
  | { operation: 'extend'; sections: PlanSection[] }
  | { operation: 'remix'; section: number; changes: SectionChanges; seed?: number };

/** A section of the plan the engine played, as a completed generation's metadata.plan reports it. */
export type PlayedSection = PlanReport;

/** What the source's metadata says was played: the pins a derived render needs to land on its grid. */
export interface Played {
  bpm: number;
  key: string;
  meter: string;
  plan: PlayedSection[];
  lyricsTiming: { text: string; start: number }[] | null;
}

/** The played facts of a completed generation; undefined for records made before plans were reported. */
export function playedOf(source: Generation): Played | undefined {
  const m = source.metadata;
  if (
    !m ||
    typeof m.bpm !== 'number' ||
    typeof m.key !== 'string' ||
    typeof m.meter !== 'string' ||
    !Array.isArray(m.plan)
  )
    return undefined;
  const timing = Array.isArray(m.lyrics_timing) ? (m.lyrics_timing as { text: string; start: number }[]) : null;
  return { bpm: m.bpm, key: m.key, meter: m.meter, plan: m.plan as PlayedSection[], lyricsTiming: timing };
}

/** Refuses a source that cannot be extended or remixed, with what to do instead; returns what it played. */
export function assertDerivable(source: Generation, operation: Derivation['operation']): Played {
  if (source.status !== 'completed') throw new GenerationStateError('source_not_completed', source.status, operation);
  if (source.loop === true) throw new GenerationStateError('source_is_loop', source.status, operation);
  const played = playedOf(source);
  if (!played || played.plan.length === 0 || typeof source.files?.wav !== 'string')
    throw new GenerationStateError('source_without_plan', source.status, operation);
  return played;
}

/** The plan section a played one is, as POST /v1/generate's `sections` takes it (reported start/end left out). */
const asPlanSection = (s: PlayedSection): PlanSection => ({
  kind: s.kind,
  bars: s.bars,
  energy: s.energy,
  instruments: [...s.instruments],
  ...(s.lyrics !== undefined ? { lyrics: s.lyrics } : {}),
});

/** The section an extension adds before its new ending when asked for seconds: more of the track's body. */
const EXTENSION_KIND: PlanKind = 'chorus';

/**
 * The new task's fields: the source's request with its tempo, key, meter and plan pinned, changed as asked, and
 * its length measured by the engine at that tempo (a 400 naming the limits for this source when outside them).
 */
export function derivedInput(
  source: Generation,
  played: Played,
  derivation: Derivation,
  limits: { min: number; max: number },
): GenerationInput {
  const from: GenerationSource = {
    id: source.id,
    operation: derivation.operation,
    ...(derivation.operation === 'remix' ? { section: derivation.section } : {}),
  };
  let plan = played.plan.map(asPlanSection);
  let lyrics = source.lyrics;
  let seed = source.seed;
  if (derivation.operation === 'extend') {
    // The source's ending is replaced: its bars before it stay, then the new material, then an ending again.
    const ending = plan.at(-1);
    if (!ending) throw new Error('assertDerivable let through a source without sections');
    if (source.instrumental && 'sections' in derivation && derivation.sections.some((s) => s.lyrics !== undefined))
      throw new ValidationError(
        'sections',
        'This generation is instrumental, so an extension of it cannot be sung. Leave out the sections\' "lyrics".',
        'conflicting_fields',
      );
    const added =
      'seconds' in derivation ? [{ kind: EXTENSION_KIND, seconds: derivation.seconds }, ending] : derivation.sections;
    plan = [...plan.slice(0, -1), ...added];
  } else {
    const { section, changes } = derivation;
    if (section >= plan.length) {
      throw new ValidationError(
        'section',
        `"section" must be the index of one of this generation's ${plan.length} sections: 0 to ${plan.length - 1}, not ${section}.`,
        'out_of_range',
      );
    }
    if (changes.lyrics !== undefined) {
      if (source.instrumental)
        throw new ValidationError(
          'lyrics',
          'This generation is instrumental, so a section of it cannot be sung. Leave out "lyrics".',
          'conflicting_fields',
        );
      // Section lyrics and a whole song's lyrics cannot be given together: every sung line goes to its section.
      plan = withSectionLyrics(plan, played);
      lyrics = null;
    }
    const redone = plan[section];
    if (!redone) throw new Error(`section ${section} passed the range check but is not in the plan`);
    plan[section] = { ...redone, ...changes };
    if (derivation.seed !== undefined) seed = derivation.seed;
  }
  const input: GenerationInput = {
    prompt: source.prompt,
    duration: source.duration,
    style: source.style,
    instrumental: source.instrumental,
    seed,
    lyrics,
    callback_url: source.callback_url,
    ...(source.encoding ? { encoding: source.encoding } : {}),
    music: { ...source.music, bpm: played.bpm, key: played.key, timeSignature: played.meter },
    plan,
    source: from,
    // The source's own style as it played it, even should the account have changed or deleted it since.
    ...(source.custom_style ? { custom_style: source.custom_style } : {}),
  };
  // A redo is the source's length whatever its plan measures (the splice keeps the source's frames); its plan is
  // still measured, which refuses lyrics its section cannot hold.
  const seconds = playable(input, plan, derivation);
  const duration =
    derivation.operation === 'remix' ? source.duration : withinLimits(seconds, played, derivation, limits);
  return { ...input, duration };
}

/**
 * Line timings are reported to the millisecond and section starts to the microsecond: a line sung from a section's
 * first beat (2.264 s) can read as starting just before it (2.264151 s).
 */
const TIMING_TOLERANCE = 0.001;

/** The played plan with each sung line of the source in the section where it starts. */
function withSectionLyrics(plan: PlanSection[], played: Played): PlanSection[] {
  const lines = played.lyricsTiming ?? [];
  const sectionOf = (start: number) =>
    played.plan.findLastIndex((section) => section.start <= start + TIMING_TOLERANCE);
  return plan.map((section, i) => {
    const sung = lines.filter((line) => sectionOf(line.start) === i).map((line) => line.text);
    const { lyrics: _dropped, ...rest } = section;
    return sung.length > 0 ? { ...rest, lyrics: sung.join('\n') } : rest;
  });
}

/** The plan's length at its tempo, as the engine measures it; a 400 saying why when the engine cannot play it. */
function playable(input: GenerationInput, plan: PlanSection[], derivation: Derivation): number {
  try {
    return planDuration({ ...input, plan });
  } catch (error) {
    // A plan the engine cannot play (lyrics with more lines than their section holds, say) says why.
    if (error instanceof EngineError)
      throw new ValidationError(
        derivation.operation === 'remix' ? 'lyrics' : 'sections',
        error.message,
        'invalid_value',
      );
    throw error;
  }
}

function withinLimits(
  seconds: number,
  played: Played,
  derivation: Derivation,
  limits: { min: number; max: number },
): number {
  if (seconds >= limits.min - 1e-6 && seconds <= limits.max + 1e-6) return seconds;
  const was = Math.round((played.plan.at(-1)?.end ?? seconds) * 10) / 10;
  const now = Math.round(seconds * 10) / 10;
  const param = 'seconds' in derivation ? 'seconds' : 'sections';
  throw new ValidationError(
    param,
    `The new track would last ${now} s; a track must be ${limits.min}–${limits.max} s. This generation lasts ${was} s with its ending, so ask for less.`,
    'out_of_range',
  );
}
