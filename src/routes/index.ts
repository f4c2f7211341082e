import { Router } from '@koa/router';
import type { AppState } from '../http/types.ts';
import type { Services } from '../services.ts';
import { getAccountHandler } from './account/get-account.ts';
import { getFileHandler } from './files/get-file.ts';
import { mountGenerationRoutes } from './generations/index.ts';
import { getHealthHandler } from './health/get-health.ts';
import { getOpenApiHandler } from './openapi/get-openapi.ts';
import { mountStyleRoutes } from './styles/index.ts';
import { mountWebhookRoutes } from './webhooks/index.ts';

/** Every route of the service. /v1 paths are authenticated and rate limited before they get here (app.ts). */
export function buildRouter(services: Services): Router<AppState> {
  const router = new Router<AppState>({ strict: true, sensitive: true });
  mountGenerationRoutes(router, services);
  mountWebhookRoutes(router, services);
  mountStyleRoutes(router, services);
  router.get('/v1/account', getAccountHandler(services));
  router.get('/v1/openapi.json', getOpenApiHandler(services));
  router.get('/healthz', getHealthHandler(services));
  router.get('/files/:account_id/:file', getFileHandler(services));
  return router;
}
