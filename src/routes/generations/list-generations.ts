import { z } from 'zod';
import { parseQuery, queryEnum, queryInteger } from '../../http/query.ts';
import { refuse } from '../../http/schema.ts';
import { authed, type RouteHandler } from '../../http/types.ts';
import type { Services } from '../../services.ts';
import { EXPANDABLE, type Expandable } from '../../domain/generations/present.ts';
import { LIST_LIMITS, STATUSES } from '../../requests/list-limits.ts';

/** `expand=trace,lyrics_timing`: the heavy metadata fields a list item carries only when asked. */
const expand = z
  .string()
  .optional()
  .meta({ examples: ['trace,lyrics_timing'] })
  .transform((raw, ctx): Expandable[] => {
    if (raw === undefined) return [];
    const fields = raw.split(',');
    const wrong = fields.find((field) => !(EXPANDABLE as readonly string[]).includes(field));
    if (wrong === undefined) return fields as Expandable[];
    refuse(
      ctx,
      'invalid_value',
      () => `"expand" takes a comma-separated list of ${EXPANDABLE.join(', ')}; "${wrong}" is not one.`,
    );
    return z.NEVER;
  })
  .meta({
    description:
      'Items leave out `metadata.trace` and `metadata.lyrics_timing` (the bulk of a sung track) unless named here, comma-separated.',
  });

export const ListGenerationsQuery = z.object({
  limit: queryInteger({ min: 1, max: LIST_LIMITS.maxLimit, fallback: LIST_LIMITS.defaultLimit }),
  offset: queryInteger({ min: 0, max: LIST_LIMITS.maxOffset, fallback: 0 }),
  status: queryEnum(STATUSES),
  expand,
});

/** GET /v1/generations: the caller's generations, newest first. */
export function listGenerationsHandler(services: Services): RouteHandler {
  return async function listGenerations(ctx) {
    const { account } = authed(ctx);
    const { limit, offset, status, expand } = parseQuery(ctx.querystring, ListGenerationsQuery);
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
