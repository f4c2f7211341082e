/** The webhook records live with the other persisted records; re-exported here for the webhook code's own imports. */
export * from '../store/webhook-types.ts';
