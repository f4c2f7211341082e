/** The Repository and BlobStore contracts (test/contracts/), on the data dir's files. */
import test from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../src/store/index.ts';
import { blobStoreContract } from './contracts/blob-store.ts';
import { repositoryContract } from './contracts/repository.ts';

async function openTemp() {
  const dataDir = await mkdtemp(join(tmpdir(), 'tunesmith-contract-'));
  const store = await openStore({ dataDir });
  return {
    store,
    close: async () => {
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

repositoryContract(test, 'files', async () => {
  const { store, close } = await openTemp();
  return { repository: store, close };
});

blobStoreContract(test, 'files', async () => {
  const { store, close } = await openTemp();
  return { blobs: store.blobs, close };
});
