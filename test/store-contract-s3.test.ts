/** The BlobStore contract (test/contracts/blob-store.ts) on an S3-compatible bucket, through the AWS SDK. */
import test from 'ava';
import { S3BlobStore } from '../src/store/s3-blob-store.ts';
import { blobStoreContract } from './contracts/blob-store.ts';
import { startS3 } from './helpers/s3.ts';

let stores = 0;

blobStoreContract(test, 's3', async (t) => {
  const s3 = await startS3(t);
  // A prefix, as a shared bucket would have: the contract holds under it.
  return {
    blobs: new S3BlobStore({ bucket: s3.bucket, prefix: `install-${++stores}/`, client: s3.client() }),
    close: async () => undefined,
  };
});
