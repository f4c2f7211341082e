import type { Router } from '@koa/router';
import type { AppState } from '../../http/types.ts';
import type { Services } from '../../services.ts';
import { cancelGenerationHandler } from './cancel-generation.ts';
import { deleteGenerationHandler } from './delete-generation.ts';
import { getGenerationHandler } from './get-generation.ts';
import { listGenerationsHandler } from './list-generations.ts';
import { postDeriveHandler } from './post-derive.ts';
import { postGenerateHandler } from './post-generate.ts';

export function mountGenerationRoutes(router: Router<AppState>, services: Services): void {
  router.post('/v1/generate', postGenerateHandler(services));
  router.get('/v1/generation/:id', getGenerationHandler(services));
  router.delete('/v1/generation/:id', deleteGenerationHandler(services));
  router.post('/v1/generation/:id/cancel', cancelGenerationHandler(services));
  router.post('/v1/generation/:id/extend', postDeriveHandler(services, 'extend'));
  router.post('/v1/generation/:id/remix', postDeriveHandler(services, 'remix'));
  // The usual REST spelling (collection/{id}) answers the same.
  router.get('/v1/generations/:id', getGenerationHandler(services));
  router.delete('/v1/generations/:id', deleteGenerationHandler(services));
  router.post('/v1/generations/:id/cancel', cancelGenerationHandler(services));
  router.post('/v1/generations/:id/extend', postDeriveHandler(services, 'extend'));
  router.post('/v1/generations/:id/remix', postDeriveHandler(services, 'remix'));
  router.get('/v1/generations', listGenerationsHandler(services));
}
