import test from 'ava';
import { createRenderPool } from '../../engine/pool.ts';
import {
  InvalidLyricsError,
  RenderAbortedError,
  RenderFailedError,
  UnknownStyleError,
  WorkerCrashedError,
} from '../../engine/errors.ts';
import type { GenerationRequest } from '../../engine/types.ts';

const fakeWorker = new URL('../fixtures/fake-worker.ts', import.meta.url);
const throwingWorker = new URL('../fixtures/throwing-worker.ts', import.meta.url);
const pooledBufferWorker = new URL('../fixtures/pooled-buffer-worker.ts', import.meta.url);

function request(prompt: string): GenerationRequest {
  return { prompt, duration: 30, style: null, instrumental: true, seed: 1 };
}

function pool(t: import('ava').ExecutionContext, workers = 2, abandonTimeoutMs = 300) {
  const created = createRenderPool({ workers, workerEntry: fakeWorker, abandonTimeoutMs });
  t.teardown(() => created.close());
  return created;
}

test('a render resolves with the bytes the worker transferred', async (t) => {
  const track = await pool(t).render(request('hello'));
  t.is(new TextDecoder().decode(track.wav), 'wav:hello');
  t.is(track.seed, 1);
});

test("a track whose small files are slices of Node's Buffer pool reaches the caller (Node 22+ refuses to transfer the pool)", async (t) => {
  const created = createRenderPool({ workers: 1, workerEntry: pooledBufferWorker });
  t.teardown(() => created.close());
  const track = await created.render(request('sung line'));
  t.is(new TextDecoder().decode(track.outputs.lrc), '[00:01.00]sung line\n');
  t.deepEqual([...track.wav], [82, 73, 70, 70]);
});

test('progress reported by the worker reaches the caller', async (t) => {
  const seen: number[] = [];
  await pool(t).render(request('x'), { onProgress: (fraction) => seen.push(fraction) });
  t.deepEqual(seen, [0.5]);
});

test('more jobs than threads wait their turn and all complete', async (t) => {
  const renderPool = pool(t, 2);
  const renders = await Promise.all(Array.from({ length: 7 }, (_, i) => renderPool.render(request(`job${i}`))));
  t.deepEqual(
    renders.map((track) => track.title),
    ['job0', 'job1', 'job2', 'job3', 'job4', 'job5', 'job6'],
  );
});

test('a crashed thread rejects its job with WorkerCrashedError and is replaced', async (t) => {
  const renderPool = pool(t, 1);
  const error = await t.throwsAsync(renderPool.render(request('crash')), { instanceOf: WorkerCrashedError });
  t.is(error?.exitCode, 3);
  const after = await renderPool.render(request('still works'));
  t.is(after.title, 'still works');
});

test('a bug thrown while rendering becomes RenderFailedError whose message tells nothing of it', async (t) => {
  const renderPool = createRenderPool({ workers: 1, workerEntry: throwingWorker });
  t.teardown(() => renderPool.close());
  const error = await t.throwsAsync(renderPool.render(request('bug')), { instanceOf: RenderFailedError });
  t.is(error?.message, 'The render failed.');
  t.is(error?.causeName, 'TypeError');
});

test('a bug thrown while rendering keeps its message and stack as the cause, for the log', async (t) => {
  const renderPool = createRenderPool({ workers: 1, workerEntry: throwingWorker });
  t.teardown(() => renderPool.close());
  const error = await t.throwsAsync(renderPool.render(request('bug')), { instanceOf: RenderFailedError });
  const cause = error?.cause as Error;
  t.regex(cause.message, /reading 'gain'/);
  t.regex(cause.stack ?? '', /throwing-worker\.ts/);
});

test('a non-Error thrown while rendering becomes RenderFailedError too', async (t) => {
  const renderPool = createRenderPool({ workers: 1, workerEntry: throwingWorker });
  t.teardown(() => renderPool.close());
  const error = await t.throwsAsync(renderPool.render(request('a string')), { instanceOf: RenderFailedError });
  t.is(error?.causeName, 'NonError');
});

test('an error written for the caller crosses the thread as its own class, with its fields', async (t) => {
  const renderPool = createRenderPool({ workers: 1, workerEntry: throwingWorker });
  t.teardown(() => renderPool.close());
  const error = await t.throwsAsync(renderPool.render(request('unknown style')), { instanceOf: UnknownStyleError });
  t.deepEqual(error?.allowed, ['lofi', 'rock']);
});

test('an error written for the caller crosses the thread with its message', async (t) => {
  const renderPool = createRenderPool({ workers: 1, workerEntry: throwingWorker });
  t.teardown(() => renderPool.close());
  const error = await t.throwsAsync(renderPool.render(request('bad lyrics')), { instanceOf: InvalidLyricsError });
  t.is(error?.message, 'The lyrics have no words to sing.');
});

test('aborting a running job rejects it at once and leaves its thread to finish (no mid-render kill)', async (t) => {
  const renderPool = pool(t, 1, 60_000);
  const controller = new AbortController();
  const slow = renderPool.render(request('slow'), { signal: controller.signal });
  setTimeout(() => controller.abort(), 50);
  await t.throwsAsync(slow, { instanceOf: RenderAbortedError });
  const next = await renderPool.render(request('next'));
  t.is(next.renderMs, 2, 'the same thread served the next job');
});

test('a cancelled render that hangs loses its thread after the grace time and the pool keeps serving', async (t) => {
  const renderPool = pool(t, 1);
  const controller = new AbortController();
  const hanging = renderPool.render(request('hang'), { signal: controller.signal });
  setTimeout(() => controller.abort(), 50);
  await t.throwsAsync(hanging, { instanceOf: RenderAbortedError });
  t.is((await renderPool.render(request('next'))).title, 'next');
});

test('aborting a queued job removes it without touching the running one', async (t) => {
  const renderPool = pool(t, 1);
  const controller = new AbortController();
  const first = renderPool.render(request('first'));
  const queued = renderPool.render(request('queued'), { signal: controller.signal });
  controller.abort();
  await t.throwsAsync(queued, { instanceOf: RenderAbortedError });
  t.is((await first).title, 'first');
});

test('close rejects waiting and running jobs and refuses new ones', async (t) => {
  const renderPool = createRenderPool({ workers: 1, workerEntry: fakeWorker, abandonTimeoutMs: 300 });
  const running = renderPool.render(request('hang'));
  const waiting = renderPool.render(request('waiting'));
  await renderPool.close();
  await t.throwsAsync(running, { instanceOf: RenderAbortedError });
  await t.throwsAsync(waiting, { instanceOf: RenderAbortedError });
  await t.throwsAsync(renderPool.render(request('late')), { instanceOf: RenderAbortedError });
  t.false(renderPool.healthy());
});

test('an invalid thread count is refused with a message naming the option', (t) => {
  t.throws(() => createRenderPool({ workers: 0, workerEntry: fakeWorker }), { message: /`workers`.*got `0`/ });
});

test('a second close waits for the same shutdown as the first', async (t) => {
  const renderPool = createRenderPool({ workers: 1, workerEntry: fakeWorker, abandonTimeoutMs: 300 });
  const running = renderPool.render(request('slow'));
  const first = renderPool.close();
  t.is(renderPool.close(), first);
  await first;
  await t.throwsAsync(running, { instanceOf: RenderAbortedError });
});
