import { readQuery, readQueryEnum, readQueryInteger } from '../../http/query.ts';
import { authed, type RouteHandler, type Services } from '../../http/types.ts';
import type { GenerationStatus } from '../../store/types.ts';
import { ValidationError } from '../../http/errors.ts';
import { EXPANDABLE, type Expandable } from '../../generations/present.ts';

export const STATUSES: readonly GenerationStatus[] = ['pending', 'processing', 'completed', 'failed'];
export const LIST_LIMITS = { defaultLimit: 20, maxLimit: 100, maxOffset: 1_000_000_000 } as const;

/** GET /v1/generations: the caller's generations, newest first. */
export function listGenerationsHandler(services: Services): RouteHandler {
  return async function listGenerations(ctx) {
    const { account } = authed(ctx);
    const query = readQuery(ctx.querystring, ['limit', 'offset', 'status', 'expand']);
    const limit = readQueryInteger(query, 'limit', {
      min: 1,
      max: LIST_LIMITS.maxLimit,
      fallback: LIST_LIMITS.defaultLimit,
    });
    const offset = readQueryInteger(query, 'offset', { min: 0, max: LIST_LIMITS.maxOffset, fallback: 0 });
    const status = readQueryEnum(query, 'status', STATUSES);
    const expand = readExpand(query.get('expand'));
    const leaveOut = EXPANDABLE.filter((field) => !expand.includes(field));

    const { items, total } = await services.generations.list(account.id, { status, limit, offset });
    ctx.body = {
      object: 'list',
      data: await services.generations.presentAll(items, leaveOut, services.now()),
      total,
      limit,
      offset,
      has_more: offset + items.length < total,
    };
  };
}

/** `expand=trace,lyrics_timing`: the heavy metadata fields a list item carries only when asked. */
function readExpand(raw: string | undefined): Expandable[] {
  if (raw === undefined) return [];
  const fields = raw.split(',');
  for (const field of fields) {
    if (!(EXPANDABLE as readonly string[]).includes(field)) {
      throw new ValidationError(
        'expand',
        `"expand" takes a comma-separated list of ${EXPANDABLE.join(', ')}; "${field}" is not one.`,
        'invalid_value',
      );
    }
  }
  return fields as Expandable[];
}
