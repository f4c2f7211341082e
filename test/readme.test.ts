/** The README against the code: the style count, the error codes and the CLI commands cannot drift apart. */
import test from 'ava';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listStyles } from '../engine/index.ts';
import { loadLanguages } from '../engine/lexicon/index.ts';
import { COMMANDS } from '../src/cli.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const readme = await readFile(join(root, 'README.md'), 'utf8');

/** The part of the README from a heading to the next heading of the same or a higher level. */
function section(heading: string): string {
  const start = readme.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`README has no "${heading}"`);
  const level = heading.split(' ')[0]!;
  const rest = readme.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`\\n#{1,${level.length}} `));
  return end === -1 ? rest : rest.slice(0, end);
}

async function sources(dir: string): Promise<string> {
  const entries = await readdir(join(root, dir), { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile() && entry.name.endsWith('.ts'));
  return (await Promise.all(files.map((entry) => readFile(join(entry.parentPath, entry.name), 'utf8')))).join('\n');
}

/** Codes of the README's error table (its third column). */
const documentedCodes = (): Set<string> =>
  new Set(
    section('### Errors')
      .split('\n')
      .filter((line) => /^\| \d{3} \|/.test(line))
      .flatMap((line) => [...(line.split('|')[3] ?? '').matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!)),
  );

/** Codes the API's errors carry: literal `code:`s of the error table and the code unions and arguments of the error classes. */
async function codesInCode(): Promise<Set<string>> {
  // The error classes and their table: the domain's errors (src/domain) and the edge's (src/http).
  const http = (await sources('src/http')) + (await sources('src/domain'));
  const all = await sources('src');
  const codes = new Set<string>();
  for (const m of http.matchAll(/code: '([a-z_]+)'|\[\d{3}, '([a-z_]+)'/g)) codes.add((m[1] ?? m[2])!);
  for (const m of http.matchAll(/readonly code: ([^,)=]+)/g))
    for (const literal of m[1]!.matchAll(/'([a-z_]+)'/g)) codes.add(literal[1]!);
  for (const m of all.matchAll(
    /new (?:ValidationError|MalformedBodyError|ResourceNotFoundError|AuthenticationError|GenerationStateError)\([^;]*?'([a-z]+(?:_[a-z]+)+)'/g,
  ))
    codes.add(m[1]!);
  // A schema's check refuses with its code: refuse(ctx, 'unknown_style', …).
  for (const m of all.matchAll(/refuse\(\s*ctx,\s*'([a-z_]+)'/g)) codes.add(m[1]!);
  for (const m of all.matchAll(/params: \{\s*code: '([a-z_]+)'/g)) codes.add(m[1]!);
  // zod's own issue code for a custom check (src/http/schema.ts), never sent.
  codes.delete('custom');
  // The dashboard's own answers (sessions and forms), not the API's: documented with the dashboard.
  for (const dashboardOnly of ['not_signed_in', 'csrf_failed']) codes.delete(dashboardOnly);
  return codes;
}

test("the README's style count is the number of presets", (t) => {
  const count = Number(/presets\/\*\.json` \((\d+) today/.exec(readme)?.[1]);
  t.is(count, listStyles().length);
});

test('every error code the API sends is in the README error table', async (t) => {
  const documented = documentedCodes();
  const missing = [...(await codesInCode())].filter((code) => !documented.has(code));
  t.deepEqual(missing, []);
});

test('every code in the README error table exists in the code', async (t) => {
  const all = await sources('src');
  const stale = [...documentedCodes()].filter(
    (code) => !all.includes(`'${code}'`) && !all.includes(`_${code.split('_').at(-1)}\``),
  );
  t.deepEqual(stale, []);
});

test('every CLI command and each of its options is in the README command table', (t) => {
  const table = section('## Command line');
  for (const [name, command] of Object.entries(COMMANDS)) {
    t.true(table.includes(`\`${name}`) || table.includes(`/ \`${name.split(' ').at(-1)}`), `command ${name}`);
    const usage = command.help.split('\n\n')[0]!;
    for (const [flag] of usage.matchAll(/--[a-z-]+/g)) t.true(table.includes(flag), `${name} ${flag}`);
  }
});

test('the README names every language the engine reads', (t) => {
  const engine = section('## The engine');
  for (const language of loadLanguages(new URL('../engine/lexicon/', import.meta.url)))
    t.true(engine.includes(language.name), language.name);
});

test("the README's generation table documents metadata.warnings", (t) => {
  t.regex(readme, /\| `metadata` \|[^\n]*`warnings`/);
});
