/** The dashboard's own stylesheet, script and icon, read once at start and served with an ETag. */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AppContext } from '../http/types.ts';

const TYPES: Record<string, string> = {
  'app.css': 'text/css; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'icon.svg': 'image/svg+xml',
};

const ASSETS = new Map(
  Object.entries(TYPES).map(([name, type]) => {
    const body = readFileSync(new URL(`./assets/${name}`, import.meta.url));
    return [name, { type, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"` }];
  }),
);

export async function serveAsset(ctx: AppContext & { params: Record<string, string> }): Promise<void> {
  const asset = ASSETS.get(ctx.params.name ?? '');
  if (!asset) return;
  ctx.set('ETag', asset.etag);
  ctx.set('Cache-Control', 'no-cache');
  ctx.type = asset.type;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.body = asset.body;
}
