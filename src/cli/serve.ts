/** `tunesmith serve`: runs the server until SIGTERM/SIGINT, then shuts down gracefully and exits 0. */
import { loadConfig } from '../config.ts';
import { parse, printHelp, type Command } from './usage.ts';

/** Listened for before starting, so a signal that arrives during start-up still shuts down cleanly. */
export function untilStopSignal(): Promise<NodeJS.Signals> {
  return new Promise<NodeJS.Signals>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      resolve(signal);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
}

export const serve: Command = {
  summary: 'Run the API server',
  help: `Usage: tunesmith serve

Runs the API server. Configuration comes from the environment:
  PORT                    port to listen on (default 3000; 0 picks a free one)
  HOST                    address to bind (default 127.0.0.1)
  TUNESMITH_DATA_DIR      where accounts, generations and audio live (default ./data)
  TUNESMITH_PUBLIC_URL    base of download URLs (default http://HOST:PORT)
  TUNESMITH_WORKERS       render threads (default: the machine's cores; 0 with TUNESMITH_DATABASE_URL: an
                          API-only node whose tasks \`tunesmith worker\` processes render)
  TUNESMITH_JOB_LEASE_SECONDS  with a database: how long a render may go unheard of before its task goes to
                          another worker (default 60)
  TUNESMITH_DOWNLOAD_TTL  lifetime of download links in seconds (default 86400)
  TUNESMITH_WEBHOOK_ALLOW_PRIVATE  1 lets webhooks go to loopback/private addresses (default 0)
  TUNESMITH_LOG_LEVEL     fatal, error, warn, info, debug, trace or silent (default info)

The log goes to stdout: one JSON line per event, or pretty lines on a terminal. The first start's key and
sign-in link go to stderr, never to the log.

On first start with an empty data dir it creates a local account and prints an API key and a one-time
link that signs that account in to the dashboard (open http://HOST:PORT in a browser).
SIGTERM or SIGINT stops it gracefully: running renders finish (up to 30 s) or resume at the next start.`,
  async run(args, io) {
    if (parse(args, {}, { min: 0, max: 0, names: '' }) === 'help') return printHelp(io, this.help);
    const config = loadConfig(io.env);
    const stopRequested = untilStopSignal();
    // Loaded here, not at the top: the key commands must not need the engine.
    const { startServer } = await import('../server.ts');
    const { createLogger } = await import('../log.ts');
    // Pretty lines for a person at a terminal, JSON lines for anything else (a service manager, a collector).
    const logger = createLogger({ level: config.logLevel ?? 'info', pretty: process.stdout.isTTY === true });
    const server = await startServer(config, { logger, print: io.err });
    const signal = await stopRequested;
    logger.info({ signal }, 'finishing running renders and shutting down');
    await server.close();
    logger.info('stopped');
    // Everything is closed; should a stray handle still hold the event loop, do not hang the shutdown on it.
    setTimeout(() => process.exit(0), 2_000).unref();
    return 0;
  },
};
