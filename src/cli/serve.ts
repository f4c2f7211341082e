/** `tunesmith serve`: runs the server until SIGTERM/SIGINT, then shuts down gracefully and exits 0. */
import { loadConfig } from '../config.ts';
import { parse, printHelp, type Command } from './usage.ts';

export const serve: Command = {
  summary: 'Run the API server',
  help: `Usage: tunesmith serve

Runs the API server. Configuration comes from the environment:
  PORT                    port to listen on (default 3000; 0 picks a free one)
  HOST                    address to bind (default 127.0.0.1)
  TUNESMITH_DATA_DIR      where accounts, generations and audio live (default ./data)
  TUNESMITH_PUBLIC_URL    base of download URLs (default http://HOST:PORT)
  TUNESMITH_WORKERS       render threads (default: the machine's cores)
  TUNESMITH_DOWNLOAD_TTL  lifetime of download links in seconds (default 86400)
  TUNESMITH_WEBHOOK_ALLOW_PRIVATE  1 lets webhooks go to loopback/private addresses (default 0)

On first start with an empty data dir it creates a local account and prints an API key and a one-time
link that signs that account in to the dashboard (open http://HOST:PORT in a browser).
SIGTERM or SIGINT stops it gracefully: running renders finish (up to 30 s) or resume at the next start.`,
  async run(args, io) {
    if (parse(args, {}, { min: 0, max: 0, names: '' }) === 'help') return printHelp(io, this.help);
    const config = loadConfig(io.env);
    // Listen for signals before starting, so one that arrives during start-up still shuts down cleanly.
    const stopRequested = new Promise<NodeJS.Signals>((resolve) => {
      const stop = (signal: NodeJS.Signals) => {
        process.off('SIGTERM', stop);
        process.off('SIGINT', stop);
        resolve(signal);
      };
      process.on('SIGTERM', stop);
      process.on('SIGINT', stop);
    });
    // Loaded here, not at the top: the key commands must not need the engine.
    const { startServer } = await import('../server.ts');
    const server = await startServer(config, { log: io.out });
    const signal = await stopRequested;
    io.out(`Received ${signal}: finishing running renders and shutting down…`);
    await server.close();
    io.out('Stopped.');
    // Everything is closed; should a stray handle still hold the event loop, do not hang the shutdown on it.
    setTimeout(() => process.exit(0), 2_000).unref();
    return 0;
  },
};
