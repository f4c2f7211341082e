/** A start on a full disk: one sentence naming the data dir, never a stack trace. */
import test from 'ava';
import { loadConfig } from '../src/config.ts';
import { silentLogger } from '../src/log.ts';
import { startServer } from '../src/server.ts';
import { StorageFullError } from '../src/store/index.ts';
import { fillingDisk } from './helpers/full-disk.ts';
import { tempDataDir } from './helpers/process.ts';

test('a start that cannot write to a full disk stops with a StorageFullError naming the data dir', async (t) => {
  const dataDir = await tempDataDir(t);
  const config = loadConfig({ PORT: '0', TUNESMITH_DATA_DIR: dataDir, TUNESMITH_WORKERS: '1' });
  const error = await t.throwsAsync(
    startServer(config, { logger: silentLogger(), print: () => undefined, open: fillingDisk(() => true) }),
    {
      instanceOf: StorageFullError,
    },
  );
  t.is(
    error?.message,
    `The disk holding the data dir ${dataDir} is full, so the server cannot start: free some space, then start again.`,
  );
});
