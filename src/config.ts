// owned by the store/jobs helper (S1): reads the environment once. Shape agreed with the HTTP helper:
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Base of download URLs, no trailing slash, e.g. http://127.0.0.1:3000 */
  publicUrl: string;
  workers: number;
  /** Lifetime of signed download URLs in seconds (24 h). */
  downloadTtlSeconds: number;
  /** Secret for signing download URLs: generated once and kept in the data dir. */
  signingSecret?: string;
}
