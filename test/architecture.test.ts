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
