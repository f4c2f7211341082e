/**
 * Prompt interpretation speed: every prompt of the prompt table (seven languages) and every multi-sentence
 * description of the description table ("descr") interpreted many times in one thread, after a warm-up that loads
 * the lexicon. Target: well under 5 ms per prompt, judged on the median and the
 * mean; the p99 is printed with the load average because on a busy machine it measures the scheduler, not us.
 *
 *   npm run bench:interpret [-- --rounds 50]
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { interpret } from '../engine/interpret/index.ts';

const TARGET_MS = 5;
const table = (file: string) => JSON.parse(readFileSync(new URL(`../test/engine/${file}`, import.meta.url), 'utf8'));
const prompts: { prompt: string; language: string }[] = [
  ...table('prompt-table.json'),
  ...(table('description-table.json') as { prompt: string }[]).map(({ prompt }) => ({ prompt, language: 'descr' })),
];
const roundsArg = process.argv.indexOf('--rounds');
const rounds = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 30;

const run = (prompt: string, seed: number) =>
  interpret({ prompt, duration: 60, seed, style: null, instrumental: false, lyrics: null });

const loadStart = performance.now();
run('warm up the lexicon', 1);
const loadMs = performance.now() - loadStart;
for (const { prompt } of prompts) run(prompt, 1);

const byLanguage = new Map<string, number[]>();
for (let round = 0; round < rounds; round++) {
  for (const { prompt, language } of prompts) {
    const started = performance.now();
    run(prompt, round);
    const ms = performance.now() - started;
    byLanguage.set(language, [...(byLanguage.get(language) ?? []), ms]);
  }
}

const all = [...byLanguage.values()].flat().sort((a, b) => a - b);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
const fmt = (ms: number) => ms.toFixed(3);
console.log(
  `interpret: ${prompts.length} prompts × ${rounds} rounds; first call (lexicon load) ${loadMs.toFixed(0)} ms`,
);
for (const [language, times] of byLanguage) {
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    `  ${language}  mean ${fmt(times.reduce((s, t) => s + t, 0) / times.length)} ms  p50 ${fmt(percentile(sorted, 0.5))}  p99 ${fmt(percentile(sorted, 0.99))}`,
  );
}
const mean = all.reduce((s, t) => s + t, 0) / all.length;
console.log(
  `  all mean ${fmt(mean)} ms  p50 ${fmt(percentile(all, 0.5))}  p99 ${fmt(percentile(all, 0.99))}  max ${fmt(all.at(-1)!)}  (target < ${TARGET_MS} ms)`,
);
console.log(
  `  load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
process.exitCode = mean < TARGET_MS && percentile(all, 0.5) < TARGET_MS ? 0 : 1;
