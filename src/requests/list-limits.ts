/** The statuses and page sizes a list of generations or of webhook deliveries may ask for, in the API and the dashboard alike. */
import type { GenerationStatus } from '../domain/model.ts';
import type { DeliveryState } from '../domain/webhooks/types.ts';

export const STATUSES = ['pending', 'processing', 'completed', 'failed'] as const satisfies readonly GenerationStatus[];

export const LIST_LIMITS = { defaultLimit: 20, maxLimit: 100, maxOffset: 1_000_000_000 } as const;

export const DELIVERY_STATES = [
  'pending',
  'delivered',
  'failed',
  'cancelled',
] as const satisfies readonly DeliveryState[];

export const DELIVERY_LIST_LIMITS = { defaultLimit: 20, maxLimit: 100, maxOffset: 1_000_000 } as const;
