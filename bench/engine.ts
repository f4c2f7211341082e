/**
 * Engine render speed in one thread (one worker's worth of CPU): seconds of render per second of audio for
 * 30, 60 and 180 s tracks over several styles, plus peak RSS. Targets: a 60 s track in ≤ 2 s, 180 s in ≤ 6 s (issue 10, with sampled instruments).
 * Then the same 60 s song sung and instrumental, alternating (target: sung ≤ 1.5× instrumental).
 *
 *   npm run bench:engine [-- --quick | --sung]
 *
 * Each measurement is a function so pool comparisons (1 vs 2 workers) can be added beside it.
 */
import { availableParallelism } from 'node:os';
import { createRenderPool, renderTrack } from '../engine/index.ts';

export interface TrackMeasurement {
  style: string;
  duration: number;
  wallMs: number;
  /** CPU time of the whole process (JS thread and the native render threads). */
  cpuMs: number;
  /** Wall seconds of render per second of audio. */
  ratio: number;
}

const STYLES = ['lofi', 'pop', 'rock', 'synthwave', 'trap', 'orchestral', 'ambient'];
const DURATIONS = [30, 60, 180];
const TARGET_SECONDS: Record<number, number> = { 60: 2, 180: 6 };

/** Samples RSS every 25 ms until stopped; returns the maximum seen. */
export function rssSampler(): { stop(): number } {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 25);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage().rss);
    },
  };
}

/** Renders one track in this thread and times it. */
export async function measureTrack(
  style: string,
  duration: number,
  seed = 1234,
  prompt = `a ${style} track`,
  instrumental = true,
): Promise<TrackMeasurement> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await renderTrack({ prompt, duration, style, instrumental, seed });
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { style, duration, wallMs, cpuMs: (used.user + used.system) / 1000, ratio: wallMs / 1000 / duration };
}

/** Every style at every duration, one after another in this thread. */
export async function measureSingleThread(styles = STYLES, durations = DURATIONS): Promise<TrackMeasurement[]> {
  const rows: TrackMeasurement[] = [];
  for (const duration of durations) {
    for (const style of styles) {
      const row = await measureTrack(style, duration);
      rows.push(row);
      console.log(
        `  ${style.padEnd(11)} ${String(duration).padStart(4)} s  wall ${(row.wallMs / 1000).toFixed(2).padStart(6)} s  cpu ${(row.cpuMs / 1000).toFixed(2).padStart(6)} s`,
      );
    }
  }
  return rows;
}

export function printSummary(rows: TrackMeasurement[]): void {
  console.log('\nduration | tracks | mean wall s | max wall s | mean cpu s | render s per audio s | target');
  console.log('-------- | ------ | ----------- | ---------- | ---------- | -------------------- | ------');
  for (const duration of [...new Set(rows.map((row) => row.duration))]) {
    const group = rows.filter((row) => row.duration === duration);
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const wall = mean(group.map((row) => row.wallMs / 1000));
    const maxWall = Math.max(...group.map((row) => row.wallMs / 1000));
    const cpu = mean(group.map((row) => row.cpuMs / 1000));
    const target = TARGET_SECONDS[duration];
    const verdict = target === undefined ? '' : `≤ ${target} s: ${maxWall <= target ? 'met' : 'NOT met'}`;
    console.log(
      `${String(duration).padStart(6)} s | ${String(group.length).padStart(6)} | ${wall.toFixed(2).padStart(11)} | ${maxWall.toFixed(2).padStart(10)} | ${cpu.toFixed(2).padStart(10)} | ${(wall / duration).toFixed(3).padStart(20)} | ${verdict}`,
    );
  }
}

export interface PoolMeasurement {
  workers: number;
  tracks: number;
  wallMs: number;
  /** Seconds of audio rendered per wall second, the pool's throughput. */
  throughput: number;
  peakRssMiB: number;
}

/**
 * Renders the same batch of tracks through a real worker pool (worker threads, as the service does) and
 * measures throughput. Threads are started and warmed before the clock starts, so start-up is not counted.
 */
export async function measurePool(workers: number, styles: string[], duration: number): Promise<PoolMeasurement> {
  const pool = createRenderPool({ workers });
  try {
    await Promise.all(
      Array.from({ length: workers }, (_, i) =>
        pool.render({ prompt: 'warm-up', duration: 2, style: styles[i % styles.length]!, instrumental: true, seed: i }),
      ),
    );
    const rss = rssSampler();
    const started = performance.now();
    await Promise.all(
      styles.map((style, i) =>
        pool.render({ prompt: `a ${style} track`, duration, style, instrumental: true, seed: 77 + i }),
      ),
    );
    const wallMs = performance.now() - started;
    return {
      workers,
      tracks: styles.length,
      wallMs,
      throughput: (styles.length * duration) / (wallMs / 1000),
      peakRssMiB: rss.stop() / 2 ** 20,
    };
  } finally {
    await pool.close();
  }
}

async function comparePools(styles: string[], duration: number): Promise<void> {
  const counts = [...new Set([1, 2, availableParallelism()])];
  console.log(`\npool: ${styles.length} × ${duration} s tracks through worker threads`);
  const results: PoolMeasurement[] = [];
  for (const workers of counts) {
    const result = await measurePool(workers, styles, duration);
    results.push(result);
    console.log(
      `  ${workers} worker(s): ${(result.wallMs / 1000).toFixed(2)} s wall, ${result.throughput.toFixed(1)} audio s per s, peak RSS ${result.peakRssMiB.toFixed(0)} MiB (whole process)`,
    );
  }
  const one = results[0]!;
  for (const result of results.slice(1))
    console.log(
      `  ${result.workers} workers vs 1: ${(result.throughput / one.throughput).toFixed(2)}× the throughput (target for 2: ≥ 1.7×)`,
    );
}

/**
 * The singer's cost: the same 60 s song prompts rendered sung and instrumental, alternating so machine load
 * hits both alike. Instrumental and sung tracks share the seed, so the arrangement is the same.
 */
async function compareSung(styles: string[], rounds: number): Promise<void> {
  console.log(`\nsung vs instrumental: ${styles.join(', ')} × 60 s, ${rounds} round(s), alternating`);
  const totals = { sung: 0, instrumental: 0 };
  for (let round = 0; round < rounds; round++) {
    for (const style of styles) {
      const prompt = `a happy ${style} song about summer`;
      const instrumental = await measureTrack(style, 60, 4321 + round, prompt, true);
      const sung = await measureTrack(style, 60, 4321 + round, prompt, false);
      totals.sung += sung.wallMs;
      totals.instrumental += instrumental.wallMs;
      console.log(
        `  ${style.padEnd(10)} instrumental ${(instrumental.wallMs / 1000).toFixed(2)} s   sung ${(sung.wallMs / 1000).toFixed(2)} s   ${(sung.wallMs / instrumental.wallMs).toFixed(2)}×`,
      );
    }
  }
  const ratio = totals.sung / totals.instrumental;
  console.log(
    `  total: sung ${(totals.sung / 1000).toFixed(2)} s vs instrumental ${(totals.instrumental / 1000).toFixed(2)} s = ${ratio.toFixed(2)}× (target ≤ 1.5×: ${ratio <= 1.5 ? 'met' : 'NOT met'})`,
  );
}

/**
 * What a long-lived render worker has done after its first tracks: modules loaded, Tone imported, the first
 * voices rendered, the pronouncing dictionary parsed (0.4–0.5 s, once per worker) and the singer compiled.
 */
async function warmUp(): Promise<void> {
  const instrumental = await measureTrack('pop', 5);
  const sung = await measureTrack('pop', 8, 1, 'a pop song about summer', false);
  console.log(
    `  warm-up: instrumental ${(instrumental.wallMs / 1000).toFixed(2)} s, first sung ${(sung.wallMs / 1000).toFixed(2)} s wall (module load, Tone, dictionary)`,
  );
}

async function main(): Promise<void> {
  if (process.argv.includes('--sung')) {
    await warmUp();
    await compareSung(['pop', 'rock', 'folk'], 2);
    return;
  }
  const quick = process.argv.includes('--quick');
  const styles = quick ? STYLES.slice(0, 5) : STYLES;
  const durations = quick ? [30, 60] : DURATIONS;
  console.log(
    `engine bench: ${styles.length} styles × ${durations.join('/')} s, one thread, load average ${(await import('node:os')).loadavg()[0]!.toFixed(2)}`,
  );
  await warmUp();
  const rss = rssSampler();
  const rows = await measureSingleThread(styles, durations);
  const peak = rss.stop();
  printSummary(rows);
  console.log(`\npeak RSS: ${(peak / 2 ** 20).toFixed(0)} MiB`);
  await compareSung(['pop', 'rock', 'folk'], quick ? 1 : 2);
  await comparePools(quick ? styles.slice(0, 4) : [...styles, ...styles].slice(0, 8), 60);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
