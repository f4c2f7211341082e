import type { Services } from '../services.ts';
import type { CredentialRecords } from '../store/repository.ts';
import type { SignInThrottle } from './sign-in-throttle.ts';
import type { DashboardKeys } from './tokens.ts';
import type { TokenBucketLimiter } from '../domain/token-bucket.ts';
import type { WaveformCache } from './waveform.ts';
import type { ErrorResponse } from '../http/error-handler.ts';

/** What the dashboard's handlers share: the app's services plus the dashboard's own state. */
export interface DashboardDeps {
  services: Services;
  credentials: CredentialRecords;
  keys: DashboardKeys;
  throttle: SignInThrottle;
  /** Sign-ups per address per hour. */
  signUps: TokenBucketLimiter;
  waveforms: WaveformCache;
  /** The one error table's answer for an error (src/http/error-handler.ts), the store's errors included. */
  describeError(error: unknown): ErrorResponse;
}
