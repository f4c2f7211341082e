/**
 * The API reference, rendered from the same OpenAPI document GET /v1/openapi.json serves, with curl
 * examples that already carry this server's address (the one the browser reached it at).
 */
import { openApiDocument } from '../../openapi.ts';
import type { AppContext } from '../../http/types.ts';
import type { DashboardDeps } from '../deps.ts';
import { html, type Html } from '../html.ts';
import { sendHtml, siteOrigin, type Viewer } from '../http.ts';
import { page } from '../views/layout.ts';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** The parts of an OpenAPI document this page reads. The document is ours (openapi.ts), so its shape is trusted. */
interface Schema {
  $ref?: string;
  const?: unknown;
  type?: string | string[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  description?: string;
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
  description?: string;
}
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, Schema>;
}
interface ApiDocument {
  info: { description: string };
  paths: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>>;
}

/** A short type name for a schema: "string", "integer | null", "Generation". */
function typeOf(schema: Schema | undefined): string {
  if (!schema) return '';
  if (schema.$ref) return String(schema.$ref).split('/').at(-1) ?? '';
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  if (schema.type === 'array') return `${typeOf(schema.items)}[]`;
  return String(schema.type ?? 'object');
}

function resolve(doc: ApiDocument, node: Schema | undefined): Schema | undefined {
  if (!node?.$ref) return node;
  return String(node.$ref)
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>(
      (at, part) => (typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[part] : undefined),
      doc,
    ) as Schema | undefined;
}

function exampleBody(path: string, schema: Schema | undefined): string {
  if (path === '/v1/generate') return '{"prompt": "a calm lofi beat with soft piano", "duration": 30}';
  const props = Object.entries(schema?.properties ?? {}).filter(([name]) => (schema?.required ?? []).includes(name));
  return JSON.stringify(
    Object.fromEntries(
      props.map(([name, s]) => [name, s.type === 'array' ? [] : s.type === 'integer' || s.type === 'number' ? 0 : '…']),
    ),
  );
}

function curlFor(base: string, method: string, path: string, op: Operation, body: Schema | undefined): string {
  if (path.startsWith('/files/')) return 'curl -o track.wav "<a download_urls.wav value from a completed generation>"';
  const url = base + path.replace('{id}', 'gen_…').replace(/\{(\w+)\}/g, '<$1>');
  const lines = [`curl -s${method === 'get' ? '' : ` -X ${method.toUpperCase()}`} ${url}`];
  if (!(Array.isArray(op.security) && op.security.length === 0))
    lines.push('  -H "Authorization: Bearer $TUNESMITH_API_KEY"');
  if (body) lines.push('  -H "Content-Type: application/json"', `  -d '${exampleBody(path, body)}'`);
  return lines.join(' \\\n');
}

function operation(doc: ApiDocument, base: string, path: string, method: string, op: Operation): Html {
  const body = resolve(doc, op.requestBody?.content?.['application/json']?.schema);
  const params = op.parameters ?? [];
  const responses = Object.entries(op.responses ?? {});
  return html`<section class="card endpoint" id="${op.operationId ?? path}">
  <h2><span class="method method-${method}">${method.toUpperCase()}</span> <code>${path}</code></h2>
  <p class="summary">${op.summary ?? ''}</p>
  ${op.description ? html`<p class="muted">${op.description}</p>` : ''}
  ${
    params.length > 0
      ? html`<h3>Parameters</h3><div class="table-wrap"><table class="params"><tbody>${params.map(
          (p) =>
            html`<tr><td><code>${p.name}</code></td><td>${p.in}${p.required ? ', required' : ''}</td><td>${typeOf(p.schema)}</td><td>${p.description ?? ''}</td></tr>`,
        )}</tbody></table></div>`
      : ''
  }
  ${
    body
      ? html`<h3>Body</h3><div class="table-wrap"><table class="params"><tbody>${Object.entries(
          body.properties ?? {},
        ).map(
          ([name, s]) =>
            html`<tr><td><code>${name}</code></td><td>${(body.required ?? []).includes(name) ? 'required' : 'optional'}</td><td>${typeOf(s)}</td><td>${s.description ?? ''}</td></tr>`,
        )}</tbody></table></div>`
      : ''
  }
  <h3>Responses</h3>
  <ul class="responses">${responses.map(([status, r]) => html`<li><span class="status-code s${status[0]}">${status}</span> ${resolve(doc, r)?.description ?? ''}</li>`)}</ul>
  <div class="copy-row code-block"><pre id="curl-${op.operationId ?? path}">${curlFor(base, method, path, op, body)}</pre><button type="button" class="button small secondary" data-copy="curl-${op.operationId ?? path}">Copy</button></div>
</section>`;
}

export function showDocs(deps: DashboardDeps) {
  return async (ctx: AppContext, viewer: Viewer) => {
    const base = siteOrigin(ctx);
    const doc = openApiDocument({
      serverUrl: base,
      styles: deps.services.engine.listStyles().map((s) => s.name),
    }) as ApiDocument;
    const ops: { path: string; method: string; op: Operation }[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of METHODS) {
        const op = item[method];
        if (op) ops.push({ path, method, op });
      }
    }
    sendHtml(
      ctx,
      page(
        viewer,
        'docs',
        'API reference',
        html`<section class="card intro">
  <p>${doc.info.description}</p>
  <p>Base URL <code>${base}</code>. Create a key on the <a href="/keys">API keys</a> page, then <code>export TUNESMITH_API_KEY=ts_live_…</code> and paste any example below.
  The machine-readable document is at <a href="/v1/openapi.json"><code>/v1/openapi.json</code></a> (no key needed).</p>
  <nav class="toc">${ops.map(({ path, method, op }) => html`<a href="#${op.operationId ?? path}"><span class="method method-${method}">${method.toUpperCase()}</span> ${path}</a>`)}</nav>
</section>
${ops.map(({ path, method, op }) => operation(doc, base, path, method, op))}`,
      ),
    );
  };
}
