/**
 * `tunesmith render --plan plan.json`: a composition plan from a file, checked with the API's own rules
 * (plan-sections.ts), each refusal a usage error naming the section. The file holds the `sections` array, an
 * object with `sections`, or a generation as GET returns it (its `plan`), so a plan played can be replayed.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { PlanSection } from '../../engine/index.ts';
import { ValidationError } from '../domain/errors.ts';
import { parseWith } from '../http/schema.ts';
import { sections as planSchema } from '../requests/plan-schema.ts';
import { z } from 'zod';
import { UsageError } from './usage.ts';

export const PLAN_HELP = `  --plan FILE        a composition plan (JSON): [{"kind": "intro", "bars": 4}, {"kind": "chorus", "bars": 8, "energy": 1}, ...]
                     or a generation from GET /v1/generation/{id} (its "plan"); the plan sets the length`;

export async function readPlanOption(path: string | undefined): Promise<PlanSection[] | undefined> {
  if (path === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(resolve(path), 'utf8'));
  } catch (error) {
    const why =
      error instanceof SyntaxError ? 'it is not valid JSON' : ((error as NodeJS.ErrnoException).code ?? 'error');
    throw new UsageError(`--plan: cannot read ${path} (${why}).`);
  }
  const sections = Array.isArray(parsed)
    ? parsed
    : typeof parsed === 'object' && parsed !== null
      ? ((parsed as Record<string, unknown>).sections ?? (parsed as Record<string, unknown>).plan)
      : undefined;
  if (sections === undefined)
    throw new UsageError(`--plan: ${path} holds no sections (give an array, or an object with "sections" or "plan").`);
  try {
    return parseWith(z.object({ sections: planSchema }), { sections }).sections;
  } catch (error) {
    if (error instanceof ValidationError) throw new UsageError(`--plan: ${error.message}`);
    throw error;
  }
}

/** Whether every section sets its own length, so --duration could only disagree with it. */
export const fullySized = (plan: readonly PlanSection[]): boolean =>
  plan.every((s) => s.bars !== undefined || s.seconds !== undefined);
