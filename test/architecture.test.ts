/**
 * The layout is the architecture: these checks keep the boundaries from eroding one import at a time.
 */
import test from 'ava';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

async function sources(folder: string): Promise<{ path: string; imports: string[] }[]> {
  const entries = await readdir(join(root, folder), { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile() && /\.(ts|js)$/.test(entry.name));
  return Promise.all(
    files.map(async (entry) => {
      const path = join(entry.parentPath, entry.name);
      const text = await readFile(path, 'utf8');
      const imports = [
        ...text.matchAll(
          /^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm,
        ),
      ].map((match) => match[1] ?? match[2] ?? match[3]!);
      return { path: relative(root, path), imports };
    }),
  );
}

test('engine/ imports nothing from src/ and nothing of Koa', async (t) => {
  for (const file of await sources('engine')) {
    for (const specifier of file.imports) {
      t.false(/(^|\/)src\//.test(specifier) || /^(koa|@koa\/)/.test(specifier), `${file.path} imports ${specifier}`);
    }
  }
});

test('src/ reaches the engine only through engine/index.ts', async (t) => {
  const files = await sources('src');
  t.true(
    files.some((file) => file.imports.some((s) => s.endsWith('engine/index.ts'))),
    'the import scan sees the engine imports',
  );
  for (const file of files) {
    for (const specifier of file.imports.filter((s) => /(^|\/)engine\//.test(s))) {
      t.regex(specifier, /(^|\/)engine\/index\.ts$/, `${file.path} imports ${specifier}`);
    }
  }
});

test('only the render pool, the encode thread and the worker bootstrap they start import worker_threads', async (t) => {
  const importers = [...(await sources('src')), ...(await sources('engine'))]
    .filter((file) => file.imports.includes('node:worker_threads') || file.imports.includes('worker_threads'))
    .map((file) => file.path)
    .sort();
  t.deepEqual(importers, ['engine/encode-thread.ts', 'engine/pool.ts', 'engine/worker-bootstrap.js']);
});

/** The src/ files under `folder` with their imports resolved to paths from the repository root. */
async function resolvedImports(folder: string): Promise<{ path: string; targets: string[] }[]> {
  return (await sources(folder)).map((file) => ({
    path: file.path,
    targets: file.imports
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => relative(root, join(root, file.path, '..', specifier))),
  }));
}

/** Every import from `folder` into one of `forbidden` (folders or files of src/), less the ones `allowed` names. */
async function crossings(folder: string, forbidden: string[], allowed: string[] = []): Promise<string[]> {
  const found: string[] = [];
  for (const file of await resolvedImports(folder))
    for (const target of file.targets)
      if (forbidden.some((f) => target === f || target.startsWith(`${f}/`)) && !allowed.includes(target))
        found.push(`${file.path} imports ${target}`);
  return found;
}

test('src/domain/ knows neither the framework nor the edges: it uses the repository, blob store and queue it is given', async (t) => {
  t.deepEqual(
    await crossings(
      'src/domain',
      [
        'src/http',
        'src/routes',
        'src/requests',
        'src/dashboard',
        'src/cli',
        'src/app.ts',
        'src/services.ts',
        'src/store',
        'src/jobs',
      ],
      // The interfaces (and their errors) it is handed, never an implementation.
      ['src/store/repository.ts', 'src/store/blob-store.ts', 'src/store/errors.ts', 'src/jobs/types.ts'],
    ),
    [],
  );
  for (const file of await sources('src/domain'))
    for (const specifier of file.imports) t.false(/^(koa|@koa\/)/.test(specifier), `${file.path} imports ${specifier}`);
});

test('src/http/ knows Koa and the domain, nothing of the store, the routes, the dashboard or the app services', async (t) => {
  t.deepEqual(
    await crossings('src/http', [
      'src/store',
      'src/routes',
      'src/requests',
      'src/dashboard',
      'src/cli',
      'src/jobs',
      'src/services.ts',
      'src/app.ts',
    ]),
    [],
  );
});

test('the dashboard takes nothing from routes/: what it shares with the API is in src/requests/ and src/domain/', async (t) => {
  t.deepEqual(await crossings('src/dashboard', ['src/routes']), []);
});

test("the store implements the domain's records and knows no edge", async (t) => {
  t.deepEqual(
    await crossings('src/store', [
      'src/http',
      'src/routes',
      'src/requests',
      'src/dashboard',
      'src/cli',
      'src/services.ts',
      'src/app.ts',
    ]),
    [],
  );
});

test('every file path a comment in src/, engine/, scripts/ or bench/ names exists (a moved file leaves no stale pointer)', async (t) => {
  const missing: string[] = [];
  for (const folder of ['src', 'engine', 'scripts', 'bench']) {
    const entries = await readdir(join(root, folder), { recursive: true, withFileTypes: true });
    for (const entry of entries.filter((e) => e.isFile() && /\.(ts|js)$/.test(e.name))) {
      const text = await readFile(join(entry.parentPath, entry.name), 'utf8');
      for (const [named] of text.matchAll(/\b(?:src|engine|test|bench|scripts)\/[\w./-]+\.(?:ts|md|json)\b/g)) {
        const exists = await readFile(join(root, named)).then(
          () => true,
          () => false,
        );
        if (!exists) missing.push(`${relative(root, join(entry.parentPath, entry.name))} names ${named}`);
      }
    }
  }
  t.deepEqual(missing, []);
});
