/**
 * What every Repository decides alike when tasks are created, whatever keeps them: one account per batch, the
 * quota taking the whole batch or none of it, and a single create being a batch of one.
 */
import { quotaResetsAt } from '../domain/plans.ts';
import { QuotaExceededError } from '../domain/errors.ts';
import type { CreateGenerationOptions } from './repository.ts';
import type { Generation, NewGeneration } from '../domain/model.ts';

/** The batch's account (its first task): a batch is one or more tasks of one account. */
export function batchLead(inputs: readonly NewGeneration[]): NewGeneration {
  const first = inputs[0];
  if (!first || inputs.some((input) => input.account_id !== first.account_id))
    throw new RangeError('createGenerations needs one or more tasks of one account');
  return first;
}

/** All or nothing: a batch that does not fit in what is left of the month's quota creates none of its tasks. */
export function assertQuotaRoom(used: number, wanted: number, options: CreateGenerationOptions, now: Date): void {
  if (options.monthlyQuota !== null && used + wanted > options.monthlyQuota)
    throw new QuotaExceededError(options.monthlyQuota, quotaResetsAt(now));
}

/** createGeneration as a batch of one. */
export async function createOne(
  repository: {
    createGenerations(
      inputs: readonly NewGeneration[],
      options: CreateGenerationOptions,
    ): Promise<{ generations: Generation[]; replayed: boolean }>;
  },
  input: NewGeneration,
  options: CreateGenerationOptions,
): Promise<{ generation: Generation; replayed: boolean }> {
  const { generations, replayed } = await repository.createGenerations([input], options);
  const [generation] = generations;
  if (!generation) throw new Error('createGenerations gave no generation back for one task');
  return { generation, replayed };
}
