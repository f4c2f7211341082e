/**
 * Creating a generation from a request body, whoever asks: POST /v1/generate and the dashboard's playground
 * both come through here, so both get the same validation; the generations module does the rest.
 */
import type { Services } from '../services.ts';
import type { CreateOptions, GenerationInput } from '../domain/generations/generations.ts';
import type { Account, Generation } from '../domain/model.ts';
import { LIMITS, parseGenerateRequest } from './generate-request.ts';
import { variationSeed } from './variations.ts';
import { planLength } from './plan-sections.ts';

export interface CreateGenerationInput extends CreateOptions {
  /** The request body, still unvalidated. */
  body: Record<string, unknown>;
}

/** One task (no `variations` in the body), or a batch of them. */
export type Created =
  | { batchId?: undefined; generation: Generation; replayed: boolean }
  | { batchId: string; generations: Generation[]; generation: Generation; replayed: boolean };

export async function createGenerationFor(
  services: Services,
  account: Account,
  input: CreateGenerationInput,
): Promise<Created> {
  const { body, ...options } = input;
  const parsed = parseGenerateRequest(body, await services.styles.names(account));
  const { variations } = parsed;
  const customStyle = await services.styles.forRequest(account, parsed.request.style);
  const request = customStyle ? { ...parsed.request, custom_style: customStyle } : parsed.request;
  if (variations === undefined) return services.generations.create(account, request, options);
  const requests = Array.from({ length: variations }, (_, i) => variationOf(request, i));
  const batch = await services.generations.createBatch(account, requests, options);
  const [first] = batch.generations;
  if (!first) throw new Error(`a batch of ${variations} was created with no generations`);
  return { ...batch, generation: first };
}

/** Variation i: the same spec with its own seed; a plan's length is measured again, as the tempo may follow the seed. */
function variationOf(request: GenerationInput, i: number): GenerationInput {
  if (i === 0) return request;
  const seed = variationSeed(request.seed, i);
  const varied = { ...request, seed };
  if (!request.plan) return varied;
  const duration = planLength({ ...varied, plan: request.plan }, false, {
    min: LIMITS.minDuration,
    max: LIMITS.maxDuration,
  });
  return { ...varied, duration };
}
