import type { Router } from '@koa/router';
import type { AppState, Services } from '../../http/types.ts';
import { getGenerationHandler } from './getGeneration.ts';
import { listGenerationsHandler } from './listGenerations.ts';
import { postGenerateHandler } from './postGenerate.ts';

export function mountGenerationRoutes(router: Router<AppState>, services: Services): void {
  router.post('/v1/generate', postGenerateHandler(services));
  router.get('/v1/generation/:id', getGenerationHandler(services));
  // The usual REST spelling (collection/{id}) answers the same.
  router.get('/v1/generations/:id', getGenerationHandler(services));
  router.get('/v1/generations', listGenerationsHandler(services));
}
