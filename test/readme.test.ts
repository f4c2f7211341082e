/**
 * The documentation against the code: the style count, the error codes, the CLI commands and the languages cannot
 * drift apart, and every link between the README and the pages under docs/ leads somewhere.
 */
import test from 'ava';
import { access, readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listStyles } from '../engine/index.ts';
import { loadLanguages } from '../engine/lexicon/index.ts';
import { COMMANDS } from '../src/cli.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const docs = [
  'README.md',
  ...(await readdir(join(root, 'docs'))).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`),
];
const texts = new Map(await Promise.all(docs.map(async (f) => [f, await readFile(join(root, f), 'utf8')] as const)));
const doc = (file: string): string => {
  const text = texts.get(file);
  if (text === undefined) throw new Error(`no ${file}`);
  return text;
};

/** The part of a page from a heading to the next heading of the same or a higher level. */
function section(file: string, heading: string): string {
  const text = doc(file);
  const start = text.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`${file} has no "${heading}"`);
  const level = heading.split(' ')[0]!;
  const rest = text.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`\\n#{1,${level.length}} `));
  return end === -1 ? rest : rest.slice(0, end);
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string): string =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replaceAll(' ', '-');

/** The anchors of a page's headings (not of lines in code blocks that start with #). */
function anchors(text: string): Set<string> {
  const found = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6} (.+)$/.exec(line);
    if (heading) found.add(slug(heading[1]!));
  }
  return found;
}

async function sources(dir: string): Promise<string> {
  const entries = await readdir(join(root, dir), { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile() && entry.name.endsWith('.ts'));
  return (await Promise.all(files.map((entry) => readFile(join(entry.parentPath, entry.name), 'utf8')))).join('\n');
}

/** Codes of the README's error table (its third column). */
const documentedCodes = (): Set<string> =>
  new Set(
    section('docs/api.md', '## Errors')
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

test('the style count in the docs and on the front page is the number of presets', (t) => {
  t.is(Number(/presets\/\*\.json` \((\d+) today/.exec(doc('docs/engine.md'))?.[1]), listStyles().length);
  t.is(Number(/in (\d+) styles/.exec(doc('README.md'))?.[1]), listStyles().length);
});

test('every error code the API sends is in the error table of docs/api.md', async (t) => {
  const documented = documentedCodes();
  const missing = [...(await codesInCode())].filter((code) => !documented.has(code));
  t.deepEqual(missing, []);
});

test('every code in the error table of docs/api.md exists in the code', async (t) => {
  const all = await sources('src');
  const stale = [...documentedCodes()].filter(
    (code) => !all.includes(`'${code}'`) && !all.includes(`_${code.split('_').at(-1)}\``),
  );
  t.deepEqual(stale, []);
});

test('every CLI command and each of its options is in the command table of docs/operations.md', (t) => {
  const table = section('docs/operations.md', '## Command line');
  for (const [name, command] of Object.entries(COMMANDS)) {
    t.true(table.includes(`\`${name}`) || table.includes(`/ \`${name.split(' ').at(-1)}`), `command ${name}`);
    const usage = command.help.split('\n\n')[0]!;
    for (const [flag] of usage.matchAll(/--[a-z-]+/g)) t.true(table.includes(flag), `${name} ${flag}`);
  }
});

test('the languages page names every language the engine reads', (t) => {
  const engine = doc('docs/languages.md');
  for (const language of loadLanguages(new URL('../engine/lexicon/', import.meta.url)))
    t.true(engine.includes(language.name), language.name);
});

test("the API page's generation table documents metadata.warnings", (t) => {
  t.regex(section('docs/api.md', '## The generation object'), /\| `metadata` \|[^\n]*`warnings`/);
});

test('every relative link of the README and the docs leads to a file that exists, and to a heading it has', async (t) => {
  for (const [file, text] of texts) {
    const prose = text.replace(/```[\s\S]*?```/g, '');
    for (const [, target] of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      const [path, anchor] = target!.split('#') as [string, string | undefined];
      const linked = path === '' ? file : join(dirname(file), path);
      await t.notThrowsAsync(access(join(root, linked)), `${file} links to ${target}, which does not exist`);
      if (anchor !== undefined && linked.endsWith('.md'))
        t.true(anchors(texts.get(linked) ?? '').has(anchor), `${file} links to ${target}: no such heading`);
    }
  }
});

test('the front page stays a front page: short, with its sample, the two commands and the library snippet', async (t) => {
  const front = doc('README.md');
  t.true(front.split('\n').length < 120, `README.md has ${front.split('\n').length} lines`);
  t.true(front.includes('npm install && npm start'));
  const sample = /\]\((docs\/media\/[^)]+\.(?:mp3|opus))\)/.exec(front)?.[1];
  t.truthy(sample);
  const bytes = await readFile(join(root, sample!));
  t.true(bytes.length < 300_000, `${sample} is ${bytes.length} bytes`);
  t.regex(front, /from 'tunesmith\/engine'/);
});

test('the table of contents, docs/README.md, links every page under docs/', (t) => {
  const contents = doc('docs/README.md');
  for (const file of texts.keys())
    if (file.startsWith('docs/') && file !== 'docs/README.md')
      t.true(contents.includes(`](${file.slice('docs/'.length)})`), `${file} is not in docs/README.md`);
});
