import test from 'ava';
import { describeError, errorBody } from '../../src/http/error-handler.ts';
import { ValidationError, QuotaExceededError } from '../../src/domain/errors.ts';
import { StoreClosedError, storageProblem } from '../../src/store/errors.ts';

test('thrown non-errors and plain errors become a bare 500', (t) => {
  for (const thrown of [
    'a string',
    null,
    undefined,
    42,
    new Error('/etc/secret at line 3'),
    new TypeError('x is undefined'),
  ]) {
    const described = describeError(thrown);
    t.is(described.status, 500);
    t.is(described.code, 'internal_error');
    t.false(described.message.includes('secret'));
  }
});

test('an engine UnknownStyleError is matched by name, even after crossing a worker', (t) => {
  const crossed = Object.assign(new Error('Unknown style "polka". Use one of: lofi.'), { name: 'UnknownStyleError' });
  t.like(describeError(crossed), { status: 400, code: 'unknown_style', param: 'style' });
});

test('an exposed 4xx http-error keeps its status and message; an unexposed one does not', (t) => {
  const exposed = Object.assign(new Error('Bad thing'), { status: 400, expose: true });
  t.like(describeError(exposed), { status: 400, message: 'Bad thing' });
  const hidden = Object.assign(new Error('internal detail'), { status: 400, expose: false });
  t.is(describeError(hidden).status, 500);
});

test('the body has type, code, message, and param only when one is at fault', (t) => {
  t.deepEqual(errorBody(describeError(new ValidationError('prompt', 'm', 'missing_field'))), {
    error: { type: 'invalid_request_error', code: 'missing_field', message: 'm', param: 'prompt' },
  });
  t.false('param' in errorBody(describeError(new QuotaExceededError(10, new Date(0)))).error);
});

test("the store's availability errors are 503s through the store's classifier, the edge naming no store class", (t) => {
  const closed = new StoreClosedError();
  t.is(describeError(closed).status, 500);
  t.like(describeError(closed, storageProblem), { status: 503, code: 'shutting_down' });
  const full = Object.assign(new Error('write failed'), { code: 'ENOSPC' });
  t.like(describeError(full, storageProblem), { status: 503, code: 'storage_unavailable' });
  t.regex(describeError(full, storageProblem).message, /storage is full/);
});
