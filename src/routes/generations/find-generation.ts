import { ResourceNotFoundError } from '../../http/errors.ts';
import type { Services } from '../../http/types.ts';
import type { Generation } from '../../store/types.ts';

/** Ids are URL-safe base64ish; anything else cannot exist, so it is not looked up. */
const PLAUSIBLE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The account's generation with this id. Unknown and other accounts' ids are the same 404. */
export function findOwnGeneration(services: Services, accountId: string, id: string): Generation {
  const generation = PLAUSIBLE_ID.test(id) ? services.store.getGeneration(accountId, id) : undefined;
  if (!generation) {
    throw new ResourceNotFoundError('generation_not_found', 'No generation with this id exists in your account. Check the id returned by POST /v1/generate.', 'id');
  }
  return generation;
}
