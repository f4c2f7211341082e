/**
 * One measurement of bench/memory.ts, in a process of its own so its peak is its own: a render pool of one worker
 * thread from the engine at `--root` (this tree or an older one), warmed up by one short render, then the given
 * requests one after another. Prints one JSON line: RSS when idle after the warm-up, the process's peak RSS
 * (getrusage, so no peak between samples is missed) and RSS after the last render, in bytes.
 *
 *   node --import tsx bench/memory-child.ts --root DIR --requests JSON
 */
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { root: { type: 'string' }, requests: { type: 'string' } } });
const engine = await import(`${values.root}/engine/index.ts`);
const requests = JSON.parse(values.requests ?? '[]') as unknown[];
const pool = engine.createRenderPool({ workers: 1 });
await pool.render({ prompt: 'warm-up', duration: 5, style: 'lofi', instrumental: true, seed: 1 });
const idle = process.memoryUsage().rss;
const started = performance.now();
for (const request of requests) await pool.render(request);
const seconds = (performance.now() - started) / 1000;
const after = process.memoryUsage().rss;
await pool.close();
console.log(JSON.stringify({ idle, peak: process.resourceUsage().maxRSS * 1024, after, seconds }));
