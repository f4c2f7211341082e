import type { RouteHandler } from '../../http/types.ts';
import type { Services } from '../../services.ts';

/** GET /v1/styles: the preset names accepted by the `style` field, each with one line of description. */
export function getStylesHandler(services: Services): RouteHandler {
  return async function getStyles(ctx) {
    const data = services.engine.listStyles().map(({ name, description }) => ({ object: 'style', name, description }));
    ctx.body = { object: 'list', data };
  };
}
