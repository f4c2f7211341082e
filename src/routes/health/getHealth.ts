import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { ServiceUnavailableError } from '../../http/errors.ts';
import type { RouteHandler, Services } from '../../http/types.ts';

/** GET /healthz (no key): 200 while the store answers and its data dir is writable and the render pool is up. */
export function getHealthHandler(services: Services): RouteHandler {
  return async function getHealth(ctx) {
    const store = await storeIsUp(services);
    const workers = services.jobs.healthy();
    ctx.set('Cache-Control', 'no-store');
    if (!store || !workers) {
      const down = [store ? null : 'the store', workers ? null : 'the render worker pool'].filter(Boolean).join(' and ');
      throw new ServiceUnavailableError(`Tunesmith is not ready: ${down} is down. Check the server log.`);
    }
    ctx.body = { status: 'ok', store: 'up', workers: 'up' };
  };
}

async function storeIsUp(services: Services): Promise<boolean> {
  try {
    services.store.getAccount('healthz');
    await access(services.store.dataDir, constants.R_OK | constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
