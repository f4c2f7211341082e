/**
 * The engine as a library (issue 26, part 5), as another project uses it: `npm install` of this checkout into a
 * directory outside it, then examples/three-tracks.mjs run there with plain Node, and a TypeScript file there
 * type-checked against the package's types.
 */
import test from 'ava';
import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));

function run(command: string, args: string[], cwd: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

test('installed in another directory, the example renders three tracks from a plain .mjs script, and the types check', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'tunesmith-library-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  // --offline: the checkout is linked, nothing is fetched.
  const installed = await run('npm', ['install', repo, '--offline', '--no-audit', '--no-fund'], dir);
  t.is(installed.code, 0, installed.out);

  await copyFile(join(repo, 'examples', 'three-tracks.mjs'), join(dir, 'three-tracks.mjs'));
  const example = await run(process.execPath, ['three-tracks.mjs', 'out'], dir);
  t.is(example.code, 0, example.out);
  t.regex(example.out, /^Styles: .*\blofi\b/m);
  const files = (await readdir(join(dir, 'out'))).sort();
  t.is(files.filter((f) => f.endsWith('.wav')).length, 3, files.join(', '));
  t.is(files.filter((f) => f.endsWith('.mid')).length, 3);
  t.is(files.filter((f) => f.endsWith('.mp3')).length, 1);
  t.is(files.filter((f) => f.endsWith('.opus')).length, 1);
  for (const wav of files.filter((f) => f.endsWith('.wav')))
    t.is((await readFile(join(dir, 'out', wav))).subarray(0, 4).toString(), 'RIFF');
  // The API's fields, flat: the bpm, key and meter asked for are the ones played.
  t.regex(example.out, /^out\/2-.*\.wav: ".+", [\d.]+ s, 110 bpm, A minor, 4\/4, seed 2$/m);
  t.regex(example.out, /^out\/3-.*\.wav: ".+", [\d.]+ s, \d+ bpm, .+, 3\/4, seed 3$/m);

  // A TypeScript consumer sees the request's fields typed: a wrong one is an error, the right ones are not.
  await writeFile(
    join(dir, 'check.mts'),
    `import { interpret, listStyles, renderTrack, type Track } from 'tunesmith/engine';
const styles: string[] = listStyles().map((s) => s.name);
const spec = interpret({ prompt: 'a waltz', bpm: 90, time_signature: '3/4' });
const bpm: number = spec.bpm;
const track: Promise<Track> = renderTrack({ prompt: 'lofi', duration: 30, formats: ['mp3'] });
// @ts-expect-error: formats lists mp3, opus or flac
renderTrack({ prompt: 'lofi', formats: ['ogg'] });
export { styles, bpm, track };
`,
  );
  const typed = await run(
    process.execPath,
    [
      join(repo, 'node_modules', 'typescript', 'bin', 'tsc'),
      '--noEmit',
      '--strict',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--target',
      'es2022',
      '--skipLibCheck',
      'check.mts',
    ],
    dir,
  );
  t.is(typed.code, 0, typed.out);
});

test('a request the API would refuse is a ValidationError naming the field, before anything is rendered', async (t) => {
  const { renderTrack, ValidationError } = await import('../src/library/engine.ts');
  const error = await t.throwsAsync(renderTrack({ prompt: 'lofi', duration: 10 }), { instanceOf: ValidationError });
  t.is((error as InstanceType<typeof ValidationError>).param, 'duration');
  await t.throwsAsync(renderTrack({ prompt: 'lofi', formats: ['ogg' as 'mp3'] }), { instanceOf: ValidationError });
  await t.throwsAsync(renderTrack({ prompt: 'lofi', callback_url: 'https://example.com' }), {
    instanceOf: ValidationError,
  });
});

/** The README's library snippet: from its "// waltz.mjs" line to the console.log that ends it. */
async function readmeSnippet(): Promise<string> {
  const readme = await readFile(join(repo, 'README.md'), 'utf8');
  const snippet = /^\/\/ waltz\.mjs[\s\S]*?^console\.log\(.*\);$/m.exec(readme)?.[0];
  if (snippet === undefined) throw new Error('README.md has no waltz.mjs snippet');
  return snippet;
}

test("the tarball npm pack makes holds the whole library and the server, not the tests: extracted outside the checkout, the README's .mjs snippet renders with plain Node and `tunesmith serve` starts", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'tunesmith-pack-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const packed = await run('npm', ['pack', '--pack-destination', dir, '--silent'], repo);
  t.is(packed.code, 0, packed.out);
  const tarball = join(dir, packed.out.trim().split('\n').at(-1)!);
  // npm would fetch the dependencies from the registry, which this test may not reach: it extracts the tarball where
  // npm install puts a package, and gives it the checkout's dependencies, so only what the tarball holds is tested.
  const consumer = join(dir, 'consumer');
  await mkdir(join(consumer, 'node_modules'), { recursive: true });
  await writeFile(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const listed = await run('tar', ['-tzf', tarball], dir);
  const files = listed.out.trim().split('\n');
  t.deepEqual(
    files.filter((file) => /^package\/(test|bench|scripts|\.ci)\//.test(file)),
    [],
    'what only the checkout needs stays out',
  );
  for (const needed of ['bin/tunesmith.js', 'lib/engine.js', 'src/cli.ts', 'engine/index.ts', 'NOTICE', 'LICENSE'])
    t.true(files.includes(`package/${needed}`), `the tarball holds ${needed}`);
  const extracted = await run('tar', ['-xzf', tarball, '-C', join(consumer, 'node_modules')], dir);
  t.is(extracted.code, 0, extracted.out);
  await rename(join(consumer, 'node_modules', 'package'), join(consumer, 'node_modules', 'tunesmith'));
  await symlink(join(repo, 'node_modules'), join(consumer, 'node_modules', 'tunesmith', 'node_modules'), 'dir');

  await writeFile(join(consumer, 'waltz.mjs'), await readmeSnippet());
  const rendered = await run(process.execPath, ['waltz.mjs'], consumer);
  t.is(rendered.code, 0, rendered.out);
  t.regex(rendered.out, /^.+ \d+(\.\d+)? [A-G][#b]? .+$/m, 'it prints the title, bpm and key');
  const mp3 = await readFile(join(consumer, 'waltz.mp3'));
  t.true(mp3.length > 100_000, `waltz.mp3 is ${mp3.length} bytes`);
  t.true(mp3.subarray(0, 3).toString() === 'ID3' || (mp3[0] === 0xff && (mp3[1]! & 0xe0) === 0xe0), 'an MP3');

  // The package's bin serves the API (and so the dashboard) from what the tarball holds.
  const dataDir = join(dir, 'data');
  const server = spawn(
    process.execPath,
    [join(consumer, 'node_modules', 'tunesmith', 'bin', 'tunesmith.js'), 'serve'],
    {
      cwd: consumer,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', TUNESMITH_DATA_DIR: dataDir, TUNESMITH_WORKERS: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));
  t.teardown(() => {
    server.kill('SIGKILL');
    return exited;
  });
  let output = '';
  const url = await new Promise<string>((resolve) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Tunesmith listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!);
    };
    server.stdout.on('data', onData);
    server.stderr.on('data', onData);
    void exited.then(() => resolve(''));
  });
  t.truthy(url, output);
  const page = await fetch(`${url}/`);
  t.is(page.status, 200);
  t.regex(await page.text(), /Tunesmith/);
});
