import { ResourceNotFoundError } from '../../domain/errors.ts';
import type { Services } from '../../services.ts';
import type { Generation } from '../../domain/model.ts';

/** The account's generation with this id. Unknown and other accounts' ids are the same 404. */
export async function findOwnGeneration(services: Services, accountId: string, id: string): Promise<Generation> {
  const generation = await services.generations.find(accountId, id);
  if (!generation) {
    throw new ResourceNotFoundError(
      'generation_not_found',
      'No generation with this id exists in your account. Check the id returned by POST /v1/generate.',
      'id',
    );
  }
  return generation;
}
