/**
 * The long poll of GET /v1/generation/:id?wait=N: the answer waits until the task's status changes, N seconds
 * pass, the client leaves or the server shuts down, whichever is first. One request, so one unit of the rate limit.
 */
import { z } from 'zod';
import { queryInteger } from '../http/query.ts';
import type { AppContext } from '../http/types.ts';
import type { Services } from '../services.ts';
import type { Generation } from '../domain/model.ts';
import { isTerminal } from '../domain/generations/present.ts';

export const MAX_WAIT_SECONDS = 60;

/** `?wait=N`, the query of GET /v1/generation/:id (and the dashboard's status poll). */
export const WaitQuery = z.object({
  wait: queryInteger({ min: 0, max: MAX_WAIT_SECONDS, fallback: 0 }).meta({
    description: `Seconds (0–${MAX_WAIT_SECONDS}) to hold the answer until the status changes; a finished task answers at once.`,
  }),
});

export function waitForChange(
  services: Services,
  ctx: AppContext,
  generation: Generation,
  seconds: number,
): Promise<void> {
  if (seconds === 0 || isTerminal(generation.status)) return Promise.resolve();
  // Waiting is ours, not a stalled client: the connection's idle limit (createHttpServer) is lifted meanwhile.
  const socket = ctx.req.socket;
  const idleMs = socket.timeout ?? 0;
  socket.setTimeout(0);
  return new Promise((resolve) => {
    const done = () => {
      socket.setTimeout(idleMs);
      clearTimeout(timer);
      unwatch();
      ctx.req.off('close', done);
      services.shutdown?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, seconds * 1000);
    const unwatch = services.generations.watch(generation.id, (now) => {
      if (now?.status !== generation.status) done();
    });
    ctx.req.once('close', done);
    if (services.shutdown?.aborted) done();
    else services.shutdown?.addEventListener('abort', done, { once: true });
  });
}
