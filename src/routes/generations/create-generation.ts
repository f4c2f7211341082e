/**
 * Creating a generation from a request body, whoever asks: POST /v1/generate and the dashboard's playground
 * both come through here, so both get the same validation; the generations module does the rest.
 */
import type { Services } from '../../http/types.ts';
import type { CreateOptions } from '../../generations/generations.ts';
import type { Account, Generation } from '../../store/types.ts';
import { parseGenerateRequest } from './generate-request.ts';

export interface CreateGenerationInput extends CreateOptions {
  /** The request body, still unvalidated. */
  body: Record<string, unknown>;
}

export function createGenerationFor(services: Services, account: Account, input: CreateGenerationInput): Promise<{ generation: Generation; replayed: boolean }> {
  const { body, ...options } = input;
  return services.generations.create(account, parseGenerateRequest(body, services.engine.listStyles()), options);
}
