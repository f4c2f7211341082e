import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { ServiceUnavailableError } from '../../http/errors.ts';
import { readLiveLock } from '../../store/index.ts';
import type { RouteHandler, Services } from '../../http/types.ts';

/** GET /healthz (no key): 200 while the store is open on a usable data dir and the render pool is up. */
export function getHealthHandler(services: Services): RouteHandler {
  return async function getHealth(ctx) {
    if (!services.store.holdsLock()) {
      ctx.set('Cache-Control', 'no-store');
      throw new ServiceUnavailableError('Tunesmith lost its data dir to another process (server.lock was replaced) and refuses every change: stop one of the servers, then restart.');
    }
    const store = await storeIsUp(services);
    const workers = services.jobs.healthy();
    ctx.set('Cache-Control', 'no-store');
    if (!store || !workers) {
      const down = [store ? null : 'the store', workers ? null : 'the render worker pool'].filter(Boolean).join(' and ');
      throw new ServiceUnavailableError(`Tunesmith is not ready: ${down} is down. Check the server log.`);
    }
    if (!(await services.store.canWrite())) {
      throw new ServiceUnavailableError('Tunesmith cannot save anything: the disk holding its data dir is full. Free some space.');
    }
    ctx.body = { status: 'ok', store: 'up', workers: 'up' };
  };
}

/** Up = this process still holds the data dir's lock (the store is open) and can read and write there. */
async function storeIsUp(services: Services): Promise<boolean> {
  try {
    if (readLiveLock(services.store.dataDir)?.pid !== process.pid) return false;
    await access(services.store.dataDir, constants.R_OK | constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
