/**
 * The webhook event a generation's transition causes, written in the transition's own transaction: the event
 * exists exactly when the new state does, so the delivery worker never sees one whose transition a crash lost.
 * It goes to the task's callback_url (completed and failed only) and to the account's enabled endpoints that
 * list its type; a plan without webhooks, or nobody to tell, makes none.
 */
import { randomBytes } from 'node:crypto';
import { limitsFor } from '../plans.ts';
import type { Transaction } from '../../store/repository.ts';
import type { Generation } from '../model.ts';
import { DEFAULT_EVENTS, type EventType, type WebhookDelivery } from '../webhooks/types.ts';
import { EVENT_OF_STATUS, transitionStamp } from '../webhooks/transition.ts';

const randomId = (prefix: string): string => prefix + randomBytes(16).toString('base64url');

/**
 * Records the event of `generation`'s new state in `tx` (`type`: the transition table's, by default its status's);
 * true when there is one for the delivery worker to send.
 */
export async function recordTransitionEvent(
  tx: Transaction,
  generation: Generation,
  now: Date,
  type: EventType | undefined = EVENT_OF_STATUS[generation.status],
): Promise<boolean> {
  const account = type && (await tx.getAccount(generation.account_id));
  if (!type || !account || !limitsFor(account).webhooks) return false;
  const transitionAt = transitionStamp(type, generation);
  const existing = await tx.eventFor(generation.id, type);
  if (existing) {
    // The same transition again (a re-render after a crash): keep the id, announce the newest state.
    await tx.setEventTransition(existing, transitionAt);
    return true;
  }
  const targets: { endpoint_id: string | null; url: string }[] = [];
  if (generation.callback_url !== null && DEFAULT_EVENTS.includes(type))
    targets.push({ endpoint_id: null, url: generation.callback_url });
  for (const endpoint of await tx.listEndpoints(account.id)) {
    if (endpoint.disabled_at === null && endpoint.events.includes(type))
      targets.push({ endpoint_id: endpoint.id, url: endpoint.url });
  }
  if (targets.length === 0) return false;
  const at = now.toISOString();
  const event = {
    id: randomId('evt_'),
    type,
    account_id: account.id,
    generation_id: generation.id,
    created_at: at,
    transition_at: transitionAt,
  };
  const deliveries: WebhookDelivery[] = targets.map((target) => ({
    id: randomId('whd_'),
    event_id: event.id,
    account_id: account.id,
    ...target,
    state: 'pending',
    attempts: [],
    round_attempts: 0,
    next_attempt_at: at,
    created_at: at,
    updated_at: at,
  }));
  await tx.addEvent(event, deliveries);
  return true;
}
