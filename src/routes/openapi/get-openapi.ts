import { openApiDocument } from '../../openapi.ts';
import type { RouteHandler } from '../../http/types.ts';
import type { Services } from '../../services.ts';

/** GET /v1/openapi.json: the OpenAPI 3.1 description of this API, with this server's URL. */
export function getOpenApiHandler(services: Services): RouteHandler {
  const document = openApiDocument({
    serverUrl: services.config.publicUrl,
    styles: services.engine.listStyles().map((s) => s.name),
  });
  return async function getOpenApi(ctx) {
    ctx.body = document;
  };
}
