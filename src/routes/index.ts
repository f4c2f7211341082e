import { Router } from '@koa/router';
import type { AppState, Services } from '../http/types.ts';
import { getAccountHandler } from './account/getAccount.ts';
import { getFileHandler } from './files/getFile.ts';
import { mountGenerationRoutes } from './generations/index.ts';
import { getHealthHandler } from './health/getHealth.ts';
import { getOpenApiHandler } from './openapi/getOpenApi.ts';
import { getStylesHandler } from './styles/getStyles.ts';
import { mountWebhookRoutes } from './webhooks/index.ts';

/** Every route of the service. /v1 paths are authenticated and rate limited before they get here (app.ts). */
export function buildRouter(services: Services): Router<AppState> {
  const router = new Router<AppState>({ strict: true, sensitive: true });
  mountGenerationRoutes(router, services);
  mountWebhookRoutes(router, services);
  router.get('/v1/styles', getStylesHandler(services));
  router.get('/v1/account', getAccountHandler(services));
  router.get('/v1/openapi.json', getOpenApiHandler(services));
  router.get('/healthz', getHealthHandler(services));
  router.get('/files/:account_id/:file', getFileHandler(services));
  return router;
}
