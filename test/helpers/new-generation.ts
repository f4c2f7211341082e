/** A task as a request makes it (an instrumental lo-fi minute), for tests that create generations in a store. */
import type { NewGeneration } from '../../src/domain/model.ts';

export const newGeneration = (accountId: string, overrides: Partial<NewGeneration> = {}): NewGeneration => ({
  account_id: accountId,
  prompt: 'a calm lofi beat',
  duration: 60,
  style: null,
  instrumental: true,
  seed: 1,
  lyrics: null,
  callback_url: null,
  ...overrides,
});
