/**
 * glibc's malloc settings for the long-lived commands (`serve`, `worker`), applied before anything else loads.
 *
 * glibc raises its mmap threshold to the size of each large mapped block that is freed (up to 32 MiB), so after the
 * first render a process takes later full-length buffers from its own heap and keeps that memory: a worker stays
 * near its largest render's size (issue 27: 1,072 MiB after 50 varied tracks). A fixed threshold stops that: every
 * block over 128 KiB is mapped on its own and returned when freed. glibc reads it from the environment only when the
 * process starts, so a process started without it replaces itself (execve: same pid, same stdio, same arguments)
 * with one that has it. Only on Linux with glibc (elsewhere the variable means nothing), only when the variable is
 * not set already (a value of the operator's own is kept), and not with `TUNESMITH_MALLOC_TUNING=0`.
 *
 * Preloaded by `npm start` and `npm run cli` (`--import ./src/memory-settings.ts`) and imported by bin/tunesmith.js
 * before the CLI, so the process is replaced before the sources load; imported first by src/cli.ts too, for a
 * `node --import tsx src/cli.ts serve` of its own (which then loads the sources twice: measured 3-6 s more to listen
 * at load ≈ 37, against none with the preload).
 */

export const MMAP_THRESHOLD = '131072';
const LONG_LIVED = new Set(['serve', 'worker']);

/**
 * The environment a process running `command` should have, or undefined when it needs nothing changed.
 * `glibc`: whether the C library is glibc (Linux only).
 */
export function tunedEnvironment(
  command: string | undefined,
  env: NodeJS.ProcessEnv,
  glibc: boolean,
): NodeJS.ProcessEnv | undefined {
  if (!glibc || !LONG_LIVED.has(command ?? '')) return undefined;
  if (env.TUNESMITH_MALLOC_TUNING === '0' || env.MALLOC_MMAP_THRESHOLD_ !== undefined) return undefined;
  return { ...env, MALLOC_MMAP_THRESHOLD_: MMAP_THRESHOLD };
}

/** Whether this process runs on glibc (the diagnostic report names its version only there). */
export function onGlibc(): boolean {
  if (process.platform !== 'linux') return false;
  const report = process.report.getReport() as { header?: { glibcVersionRuntime?: string } };
  return typeof report.header?.glibcVersionRuntime === 'string';
}

/** The command a `node [options] SCRIPT COMMAND …` process runs: the first argument after the script. */
const command = process.argv[2];
const entry = process.argv[1] ?? '';
// As src/cli.ts tells how it was started: the bin (installed, or linked as `tunesmith`) or the CLI's own file.
const isEntry = /\/(?:bin\/tunesmith\.js|tunesmith|src\/cli\.ts)$/.test(entry);
const env = isEntry && LONG_LIVED.has(command ?? '') ? tunedEnvironment(command, process.env, onGlibc()) : undefined;
// process.execve is Node 22.15 and 23.11 on; an older Node runs on without the setting.
const execve = (process as { execve?: (file: string, args: string[], env: NodeJS.ProcessEnv) => never }).execve;
if (env && typeof execve === 'function') {
  execve.call(process, process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], env);
}
