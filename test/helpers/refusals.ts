/**
 * One test per refused body of POST /v1/generate: a 400 naming the field (or the place in the plan), the
 * house's message, and no task queued. The musical fields and the composition plan share it.
 */
import test from 'ava';
import { errorOf, startApp } from './app.ts';

export interface Refusal {
  title: string;
  body: Record<string, unknown>;
  code: string;
  param: string;
  message: RegExp;
}

export function generateRefusals(prompt: string, refusals: readonly Refusal[], naming: string): void {
  for (const refusal of refusals) {
    test(`POST /v1/generate refuses ${refusal.title} with a 400 naming ${naming}`, async (t) => {
      const app = await startApp(t);
      const { key } = await app.account();
      const res = await app.call(key, '/v1/generate', { json: { prompt, ...refusal.body } });
      t.is(res.status, 400);
      const error = await errorOf(res);
      t.like(error, { type: 'invalid_request_error', code: refusal.code, param: refusal.param });
      t.regex(error.message, refusal.message);
      t.is(app.jobs.queued.length, 0);
    });
  }
}
