/**
 * /v1/styles: the built-in styles and the account's own. Making one is Enterprise's (custom_styles, 403
 * otherwise); listing and deleting are every plan's, so an account that lost the feature can still see and tidy
 * away what it made. Other accounts' styles are never seen: a name that is not yours is a 404 as an unknown one.
 */
import type { Router } from '@koa/router';
import type { CustomStyleRecord } from '../../domain/custom-styles.ts';
import { readJsonObject } from '../../http/json-body.ts';
import { authed, type AppContext, type AppState } from '../../http/types.ts';
import type { Services } from '../../services.ts';
import { parseStyleRequest } from '../../requests/style-request.ts';

export const presentCustomStyle = (style: CustomStyleRecord) => ({
  object: 'style',
  name: style.name,
  description: style.description,
  custom: true,
  base: style.base,
  ...style.changes,
  created_at: style.created_at,
});

const nameParam = (ctx: AppContext): string => String((ctx as { params?: Record<string, string> }).params?.name ?? '');

export function mountStyleRoutes(router: Router<AppState>, services: Services): void {
  router.get('/v1/styles', async (ctx) => {
    const own = await services.styles.list(authed(ctx).account);
    const builtIn = services.engine
      .listStyles()
      .map(({ name, description }) => ({ object: 'style', name, description, custom: false }));
    ctx.body = { object: 'list', data: [...builtIn, ...own.map(presentCustomStyle)] };
  });
  router.post('/v1/styles', async (ctx) => {
    const { account } = authed(ctx);
    const style = await services.styles.create(account, parseStyleRequest(await readJsonObject(ctx)));
    ctx.status = 201;
    ctx.set('Location', `/v1/styles/${style.name}`);
    ctx.body = presentCustomStyle(style);
  });
  router.get('/v1/styles/:name', async (ctx) => {
    const name = nameParam(ctx).toLowerCase();
    const builtIn = services.engine.listStyles().find((style) => style.name === name);
    ctx.body = builtIn
      ? { object: 'style', name: builtIn.name, description: builtIn.description, custom: false }
      : presentCustomStyle(await services.styles.get(authed(ctx).account, name));
  });
  router.delete('/v1/styles/:name', async (ctx) => {
    await services.styles.delete(authed(ctx).account, nameParam(ctx));
    ctx.status = 204;
  });
}
