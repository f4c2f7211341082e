/** Which PostgreSQL failures are the database's state (answered 503 storage_unavailable) rather than a bug (500). */
import test from 'ava';
import { databaseUnavailable } from '../src/store/postgres/errors.ts';

const failure = (code: string, message = 'x') => Object.assign(new Error(message), { code });

test('disk full (53100) is "full"; the rest of class 53, class 08, 57P01-57P03 and refused connections are "unreachable"', (t) => {
  t.is(databaseUnavailable(failure('53100', 'could not extend file: No space left on device')), 'full');
  for (const code of [
    '53200',
    '53300',
    '53400',
    '08006',
    '08001',
    '57P01',
    '57P02',
    '57P03',
    'ECONNREFUSED',
    'ECONNRESET',
  ]) {
    t.is(databaseUnavailable(failure(code)), 'unreachable', code);
  }
  t.is(databaseUnavailable(new Error('Connection terminated unexpectedly')), 'unreachable');
});

test('errors of the query itself stay unmapped: a constraint, a syntax error, a cancelled statement', (t) => {
  for (const code of ['23505', '42601', '57014', '40001']) t.is(databaseUnavailable(failure(code)), undefined, code);
  t.is(databaseUnavailable(new Error('something else')), undefined);
  t.is(databaseUnavailable(undefined), undefined);
});
