import { ServiceUnavailableError } from '../domain/errors.ts';
import type { WebhookService } from '../domain/webhooks/service.ts';
import type { Services } from '../services.ts';

/** The webhooks service; a 503 when the app was built without it (an API-only test app, the bench). */
export function webhooksOf(services: Services): WebhookService {
  if (!services.webhooks) throw new ServiceUnavailableError('Webhooks are not running on this server.');
  return services.webhooks;
}
