import test, { type ExecutionContext } from 'ava';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresBinDir } from '../scripts/postgres-bin.ts';
import { ensureTools, TOOLS } from '../scripts/test-tools.ts';
import { runScript } from './helpers/process.ts';

const script = new URL('../scripts/test-tools.ts', import.meta.url).pathname;
/**
 * The command-line tools only: the font is a file outside any temp dir, and PostgreSQL is also looked for in
 * /usr/lib/postgresql, so these tests leave them out (postgres-bin has its own tests below).
 */
const commandTools = TOOLS.filter((tool) => !tool.found && tool.provides.every((thing) => !thing.startsWith('/')));
const allCommands = commandTools.flatMap((tool) => tool.provides);
const quiet = () => undefined;

async function tempBin(t: ExecutionContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tunesmith-tools-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function stub(dir: string, name: string, body = 'exit 0'): Promise<void> {
  await writeFile(join(dir, name), `#!/bin/sh\n${body}\n`);
  await chmod(join(dir, name), 0o755);
}

/** An apt-get that logs its arguments and, on install, puts every tool on the PATH (or fails with `exitCode`). */
async function fakeAptGet(dir: string, exitCode = 0): Promise<string> {
  const log = join(dir, 'apt-get.log');
  const stubs = allCommands
    .map((name) => `printf '#!/bin/sh\\n' > "${dir}/${name}"; /bin/chmod +x "${dir}/${name}"`)
    .join('\n');
  await stub(
    dir,
    'apt-get',
    `printf '%s\\n' "$*" >> "${log}"\n[ "$1" = install ] && [ ${exitCode} = 0 ] && { ${stubs}\n}\nexit ${exitCode}`,
  );
  return log;
}

test('without the tools and without a way to install them, the check stops with one sentence naming them', async (t) => {
  const empty = await tempBin(t);
  const { code, stderr } = await runScript(script, [], { PATH: empty });
  t.is(code, 1);
  t.is(stderr.trim().split('\n').length, 1);
  t.regex(
    stderr,
    /needs ffmpeg, sox, aubio-tools, bpm-tools and chromium.*sudo apt-get install ffmpeg sox aubio-tools bpm-tools chromium/,
  );
});

test('as root with apt-get, the missing tools are installed and the check passes', async (t) => {
  const bin = await tempBin(t);
  const log = await fakeAptGet(bin);
  const result = ensureTools({ path: bin, root: true, tools: commandTools, log: quiet });
  t.deepEqual(result, { ok: true, installed: ['ffmpeg', 'sox', 'aubio-tools', 'bpm-tools', 'chromium'] });
  t.deepEqual((await readFile(log, 'utf8')).trim().split('\n'), [
    'update -qq',
    'install -y -qq --no-install-recommends ffmpeg sox aubio-tools bpm-tools chromium',
  ]);
});

test('only the missing packages are installed', async (t) => {
  const bin = await tempBin(t);
  const log = await fakeAptGet(bin);
  for (const name of allCommands.filter((name) => name !== 'bpm')) await stub(bin, name);
  ensureTools({ path: bin, root: true, tools: commandTools, log: quiet });
  t.regex(await readFile(log, 'utf8'), /--no-install-recommends bpm-tools\n$/);
});

test('an install that fails stops the check with one sentence', async (t) => {
  const bin = await tempBin(t);
  await fakeAptGet(bin, 100);
  const result = ensureTools({ path: bin, root: true, tools: commandTools, log: quiet });
  t.false(result.ok);
  t.regex(result.ok ? '' : result.message, /did not install them: see apt-get's output above\.$/);
});

test('not root, nothing is installed even with apt-get on the PATH', async (t) => {
  const bin = await tempBin(t);
  const log = await fakeAptGet(bin);
  const result = ensureTools({ path: bin, root: false, tools: commandTools, log: quiet });
  t.false(result.ok);
  await t.throwsAsync(readFile(log, 'utf8'), { code: 'ENOENT' });
});

test('with every tool there, apt-get is not run', async (t) => {
  const bin = await tempBin(t);
  for (const name of allCommands) await stub(bin, name);
  const result = ensureTools({
    path: bin,
    root: true,
    tools: commandTools,
    run: () => {
      t.fail('apt-get ran');
      return 1;
    },
  });
  t.deepEqual(result, { ok: true, installed: [] });
});

test('npm test runs the check before anything else, and CI runs lint and npm test on Node 24 and the fast part on Node 22', async (t) => {
  const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
    scripts: Record<string, string>;
  };
  t.true(pkg.scripts.test!.startsWith('node --import tsx scripts/test-tools.ts && '));
  t.true(pkg.scripts['test:fast']!.startsWith('node --import tsx scripts/test-tools.ts && '));
  const ci = await readFile(new URL('../.ci/run', import.meta.url), 'utf8');
  t.regex(ci, /^on_node 24 'npm ci && npm run lint && npm test'$/m);
  t.regex(ci, /^on_node 22 'npm run test:fast'$/m);
});

test("PostgreSQL's server is found in Debian's versioned dir, newest version first, when it is not on the PATH", async (t) => {
  const root = await tempBin(t);
  for (const version of ['13', '15']) {
    await mkdir(join(root, version, 'bin'), { recursive: true });
    for (const name of ['initdb', 'postgres']) await stub(join(root, version, 'bin'), name);
  }
  await mkdir(join(root, '16', 'bin'), { recursive: true }); // a client-only install: psql, no server
  await stub(join(root, '16', 'bin'), 'psql');
  t.is(postgresBinDir('', root), join(root, '15', 'bin'));
});

test("PostgreSQL's server on the PATH wins, and without a server anywhere it is missing", async (t) => {
  const bin = await tempBin(t);
  const emptyRoot = await tempBin(t);
  t.is(postgresBinDir(bin, emptyRoot), undefined);
  for (const name of ['initdb', 'postgres']) await stub(bin, name);
  t.is(postgresBinDir(bin, emptyRoot), bin);
});
