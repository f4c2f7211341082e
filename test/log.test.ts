import test from 'ava';
import { PassThrough } from 'node:stream';
import { createLogger } from '../src/log.ts';

function sink() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { stream, text: () => text };
}

test('the log is one JSON line per event by default', (t) => {
  const out = sink();
  createLogger({ destination: out.stream }).info({ gen_id: 'gen_1' }, 'task queued');
  t.like(JSON.parse(out.text()), { level: 30, gen_id: 'gen_1', msg: 'task queued' });
});

test('the pretty form is a readable line, not JSON', (t) => {
  const out = sink();
  createLogger({ pretty: true, destination: out.stream }).info({ gen_id: 'gen_1' }, 'task queued');
  t.regex(out.text(), /INFO.*task queued/);
  t.throws(() => JSON.parse(out.text()));
});

test('fields named like secrets are redacted, even nested', (t) => {
  const out = sink();
  createLogger({ destination: out.stream }).info(
    { password: 'hunter2', headers: { authorization: 'Bearer ts_live_x' } },
    'oops',
  );
  t.false(out.text().includes('hunter2'));
  t.false(out.text().includes('ts_live_x'));
});

test('lines below the level are left out', (t) => {
  const out = sink();
  const logger = createLogger({ level: 'warn', destination: out.stream });
  logger.info('not this');
  logger.warn('this');
  t.is(out.text().trim().split('\n').length, 1);
});
