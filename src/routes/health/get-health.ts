import { ServiceUnavailableError } from '../../domain/errors.ts';
import type { RouteHandler } from '../../http/types.ts';
import type { Services } from '../../services.ts';

/** GET /healthz (no key): 200 while the store is up (the file store: open on a usable data dir) and the render pool is up. */
export function getHealthHandler(services: Services): RouteHandler {
  return async function getHealth(ctx) {
    if (!services.repository.holdsLock()) {
      ctx.set('Cache-Control', 'no-store');
      throw new ServiceUnavailableError(
        'Tunesmith lost its data dir to another process (server.lock was replaced) and refuses every change: stop one of the servers, then restart.',
      );
    }
    const store = await services.repository.healthy();
    const workers = services.jobs.healthy();
    ctx.set('Cache-Control', 'no-store');
    if (!store || !workers) {
      if (!store && services.repository.storeName) {
        // PostgreSQL mode: the database is elsewhere, and every request that reads or saves records fails until it is back.
        throw new ServiceUnavailableError(
          `Tunesmith is not ready: ${services.repository.storeName} is unreachable${workers ? '' : ' and the render worker pool is down'}. Check the server log.`,
        );
      }
      const down = [store ? null : 'the store', workers ? null : 'the render worker pool']
        .filter(Boolean)
        .join(' and ');
      throw new ServiceUnavailableError(`Tunesmith is not ready: ${down} is down. Check the server log.`);
    }
    if (!(await services.repository.canWrite())) {
      throw new ServiceUnavailableError(
        'Tunesmith cannot save anything: the disk holding its data dir is full. Free some space.',
      );
    }
    ctx.body = { status: 'ok', store: 'up', workers: 'up' };
  };
}
