/**
 * A composition plan's length: it depends on the tempo, so the engine measures it (planDuration); the plan's
 * sections themselves are checked by their schema (plan-schema.ts).
 */
import { planDuration, EngineError, type GenerationRequest } from '../../engine/index.ts';
import { ValidationError } from '../domain/errors.ts';

/**
 * The duration a plan gives, measured by the engine at the track's tempo; a 400 when it is outside the API's
 * limits. `duration` with a plan whose every section has a length is refused: two lengths that can disagree.
 */
export function planLength(
  request: GenerationRequest & { plan: NonNullable<GenerationRequest['plan']> },
  durationGiven: boolean,
  limits: { min: number; max: number },
): number {
  const { plan } = request;
  if (plan.some((s) => s.lyrics !== undefined)) {
    if (request.instrumental)
      throw new ValidationError(
        'sections',
        'Sections with "lyrics" cannot be sung with "instrumental": true. Drop one of them.',
        'conflicting_fields',
      );
    if (request.lyrics)
      throw new ValidationError(
        'lyrics',
        '"lyrics" and lyrics in "sections" cannot both be given: put every section\'s words in its section, or use "lyrics" alone.',
        'conflicting_fields',
      );
  }
  const allSized = plan.every((s) => s.bars !== undefined || s.seconds !== undefined);
  if (allSized && durationGiven) {
    throw new ValidationError(
      'duration',
      '"duration" cannot be given when every section has "bars" or "seconds": the plan sets the length. Drop "duration" (or a section\'s length to let it fill the rest).',
      'conflicting_fields',
    );
  }
  let seconds: number;
  try {
    seconds = planDuration(request);
  } catch (error) {
    if (error instanceof EngineError) throw new ValidationError('sections', error.message, 'invalid_value');
    throw error;
  }
  if (seconds < limits.min - 1e-6 || seconds > limits.max + 1e-6) {
    throw new ValidationError(
      'sections',
      `The plan lasts ${Math.round(seconds * 10) / 10} s at this tempo; a track must be ${limits.min}–${limits.max} s. Change the sections' bars or seconds (or "bpm").`,
      'out_of_range',
    );
  }
  return seconds;
}
