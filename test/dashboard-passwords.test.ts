/** The cap on password hashes in flight (alone in its file: other tests' hashes would take slots). */
import test from 'ava';
import { hashPassword, PASSWORD_SLOTS, PasswordChecksBusyError, verifyPassword } from '../src/dashboard/passwords.ts';

test('password checks beyond the running and waiting slots are refused at once, and the rest complete', async (t) => {
  const stored = await hashPassword('the right password');
  const extra = 5;
  const checks = Array.from({ length: PASSWORD_SLOTS.running + PASSWORD_SLOTS.waiting + extra }, (_, i) =>
    verifyPassword(i === 0 ? 'the right password' : `guess ${i}`, stored),
  );
  const results = await Promise.allSettled(checks);
  const refused = results.filter((r) => r.status === 'rejected');
  t.is(refused.length, extra);
  for (const r of refused) t.true((r as PromiseRejectedResult).reason instanceof PasswordChecksBusyError);
  t.deepEqual(results[0], { status: 'fulfilled', value: true });
  t.true(await verifyPassword('the right password', stored), 'the slots are all given back');
});
