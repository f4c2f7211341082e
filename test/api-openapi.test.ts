/** The OpenAPI document describes every route the router serves. */
import test from 'ava';
import type { Router } from '@koa/router';
import type { AppState } from '../src/http/types.ts';
import { generateRequestSchema } from '../src/requests/generate-request.ts';
import { listStyles } from '../engine/index.ts';
import { requestComponents } from '../src/http/schema.ts';
import { queryParameters } from '../src/http/query.ts';
import { QUERIES, REQUEST_BODIES, requestSchemas } from '../src/routes/request-schemas.ts';
import { startApp } from './helpers/app.ts';

test('GET /v1/openapi.json is an OpenAPI 3.1 document with this server as its server', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const doc = await (await app.call(key, '/v1/openapi.json')).json();
  t.is(doc.openapi, '3.1.0');
  t.deepEqual(doc.servers, [{ url: app.url }]);
  t.truthy(doc.components.schemas.Error);
  t.truthy(doc.components.securitySchemes.bearer);
});

test('GET /v1/openapi.json needs no key', async (t) => {
  const app = await startApp(t);
  const res = await app.call(null, '/v1/openapi.json');
  t.is(res.status, 200);
  t.is((await res.json()).openapi, '3.1.0');
});

test('GET /v1/openapi.json with a key does not count against its rate limit', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account('starter');
  for (let i = 0; i < 12; i++) t.is((await app.call(key, '/v1/openapi.json')).status, 200);
  const account = await app.call(key, '/v1/account');
  t.is(account.headers.get('ratelimit-remaining'), String(Number(account.headers.get('ratelimit-limit')) - 1));
});

test('every routed path and method appears in the OpenAPI document', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const doc = await (await app.call(key, '/v1/openapi.json')).json();
  const routes = app.koa.middleware.flatMap((mw) => (mw as { router?: Router<AppState> }).router?.stack ?? []);
  t.true(routes.length >= 8);
  for (const layer of routes) {
    const path = String(layer.path).replace(/:(\w+)/g, '{$1}');
    for (const method of layer.methods.filter((m) => m !== 'HEAD')) {
      t.truthy(doc.paths[path]?.[method.toLowerCase()], `${method} ${path} is not in the document`);
    }
  }
});

test('every $ref in the document resolves', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const doc = await (await app.call(key, '/v1/openapi.json')).json();
  const refs: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) k === '$ref' ? refs.push(v as string) : walk(v);
    }
  };
  walk(doc);
  t.true(refs.length > 20);
  for (const ref of refs) {
    const target = ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>(
        (node, part) =>
          typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined,
        doc,
      );
    t.truthy(target, ref);
  }
});

test("every route's request body in the served document is its zod schema's JSON Schema, and every documented body has one", async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const doc = await (await app.call(key, '/v1/openapi.json')).json();
  const generated = requestComponents(requestSchemas(listStyles().map((style) => style.name)));
  for (const { method, path, schema } of REQUEST_BODIES) {
    const body = doc.paths[path]?.[method]?.requestBody;
    t.deepEqual(body?.content['application/json'].schema, { $ref: `#/components/schemas/${schema}` }, path);
    t.deepEqual(doc.components.schemas[schema], generated[schema], schema);
  }
  const documented = Object.entries(doc.paths as Record<string, Record<string, { requestBody?: unknown }>>).flatMap(
    ([path, item]) =>
      Object.entries(item)
        .filter(([, operation]) => operation.requestBody !== undefined)
        .map(([method]) => `${method} ${path}`),
  );
  t.deepEqual(documented.sort(), REQUEST_BODIES.map(({ method, path }) => `${method} ${path}`).sort());
});

test("every route's query parameters in the served document are its query schema's, and no other route documents any", async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const doc = await (await app.call(key, '/v1/openapi.json')).json();
  type Operation = { parameters?: { in: string; name: string }[] };
  for (const { method, path, schema } of QUERIES) {
    const documented = (doc.paths[path][method] as Operation).parameters?.filter((p) => p.in === 'query');
    t.deepEqual(documented, queryParameters(schema), path);
  }
  const withQuery = Object.entries(doc.paths as Record<string, Record<string, Operation>>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([, operation]) => operation.parameters?.some((p) => p.in === 'query'))
      .map(([method]) => `${method} ${path}`),
  );
  // Signed download links carry their own expires and sig: facts of the link, not a query to describe by schema.
  t.deepEqual(
    withQuery.filter((route) => route !== 'get /files/{account_id}/{file}').sort(),
    QUERIES.map(({ method, path }) => `${method} ${path}`).sort(),
  );
});

test('the documented request body names exactly the fields the handler accepts', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const doc = await (await app.call(key, '/v1/openapi.json')).json();
  t.deepEqual(
    Object.keys(doc.components.schemas.GenerateRequest.properties).sort(),
    Object.keys(generateRequestSchema([]).shape).sort(),
  );
});

test('the Generation schema documents bpm, key, time_signature, sections, loudness, the audio options and every download', async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const doc = await (await app.call(key, '/v1/openapi.json')).json();
  const generation = doc.components.schemas.Generation.properties;
  for (const field of ['bpm', 'key', 'time_signature', 'sections', 'loudness', 'sample_rate', 'bit_depth', 'bitrate'])
    t.truthy(generation[field], field);
  t.deepEqual(generation.sections.items.required, ['kind', 'start', 'end', 'bars']);
  t.deepEqual(generation.loudness.required, ['integrated', 'true_peak']);
  t.deepEqual(Object.keys(generation.download_urls.properties), [
    'wav',
    'mp3',
    'opus',
    'flac',
    'midi',
    'lrc',
    'vtt',
    'stems',
  ]);
  t.is(generation.stem_urls.additionalProperties.format, 'uri');
  const file = doc.paths['/files/{account_id}/{file}'].get;
  t.deepEqual(Object.keys(file.responses['200'].content).sort(), [
    'application/zip',
    'audio/flac',
    'audio/midi',
    'audio/mpeg',
    'audio/ogg; codecs=opus',
    'audio/wav',
    'text/plain; charset=utf-8',
    'text/vtt; charset=utf-8',
  ]);
});

test("the Generation schema marks metadata's sections, plan and loudness as deprecated aliases of the top-level fields", async (t) => {
  const app = await startApp(t);
  const { key } = await app.account();
  const doc = await (await app.call(key, '/v1/openapi.json')).json();
  const generation = doc.components.schemas.Generation.properties;
  for (const field of ['sections', 'plan', 'loudness']) {
    t.truthy(generation[field], field);
    t.true(generation.metadata.properties[field]?.deprecated, `metadata.${field}`);
    t.regex(generation.metadata.properties[field].description, new RegExp(`top-level "${field}"`));
  }
});
