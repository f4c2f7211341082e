import { readFileSync } from 'node:fs';
import test from 'ava';
import { MMAP_THRESHOLD, onGlibc, tunedEnvironment } from '../src/memory-settings.ts';
import { startServerProcess, tempDataDir } from './helpers/process.ts';

test('serve and worker get a fixed mmap threshold on glibc, unless set already or turned off', (t) => {
  t.is(tunedEnvironment('serve', { A: '1' }, true)?.MALLOC_MMAP_THRESHOLD_, MMAP_THRESHOLD);
  t.is(tunedEnvironment('serve', { A: '1' }, true)?.A, '1');
  t.is(tunedEnvironment('worker', {}, true)?.MALLOC_MMAP_THRESHOLD_, MMAP_THRESHOLD);
  t.is(tunedEnvironment('worker', {}, false), undefined, 'not on another C library (macOS, musl)');
  t.is(tunedEnvironment('render', {}, true), undefined, 'a one-off command is left as it is');
  t.is(tunedEnvironment(undefined, {}, true), undefined);
  t.is(tunedEnvironment('serve', { MALLOC_MMAP_THRESHOLD_: '65536' }, true), undefined, "the operator's own value");
  t.is(tunedEnvironment('serve', { TUNESMITH_MALLOC_TUNING: '0' }, true), undefined, 'the opt-out');
});

/** The environment the process was started with as /proc shows it (after an execve, the new one). */
function environOf(pid: number | undefined): Record<string, string> {
  const pairs = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
}

// Where the tests themselves run with a threshold of their own, a server keeps it: nothing to see.
const onLinuxGlibc = onGlibc() && process.env.MALLOC_MMAP_THRESHOLD_ === undefined ? test : test.skip;

onLinuxGlibc(
  'a started server runs with the threshold under its own pid, and without it when turned off',
  async (t) => {
    const tuned = await startServerProcess(t, await tempDataDir(t), {});
    t.truthy(tuned.url, tuned.output());
    t.is(environOf(tuned.child.pid).MALLOC_MMAP_THRESHOLD_, MMAP_THRESHOLD);
    const off = await startServerProcess(t, await tempDataDir(t), { TUNESMITH_MALLOC_TUNING: '0' });
    t.truthy(off.url, off.output());
    t.is(environOf(off.child.pid).MALLOC_MMAP_THRESHOLD_, undefined);
  },
);
