/**
 * Opens the blob store TUNESMITH_STORAGE_URL names, and checks at start that it can be reached, so a wrong
 * bucket or endpoint stops the start with one line instead of failing every render later.
 */
import { mkdir, realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { BlobStore } from './blob-store.ts';
import { FileBlobStore } from './file-blob-store.ts';
import type { S3Settings, StorageLocation } from './storage-location.ts';

export interface OpenedBlobStore {
  blobs: BlobStore;
  /** Where it is, for the start banner and the log (never with credentials). */
  description: string;
  close(): Promise<void>;
}

/** The store could not be opened or reached; the message names the variable and what to check. */
export class StorageUnreachableError extends Error {
  override name = 'StorageUnreachableError' as const;
}

export async function openBlobStore(options: {
  location: StorageLocation | undefined;
  s3: S3Settings;
  dataDir: string;
  /** The data dir's own store: under its lock and its full-disk watch. */
  dataDirBlobs: BlobStore;
}): Promise<OpenedBlobStore> {
  const { location } = options;
  if (location === undefined || (location.kind === 'file' && resolve(location.root) === resolve(options.dataDir))) {
    return {
      blobs: options.dataDirBlobs,
      description: `the data dir (${options.dataDir})`,
      close: async () => undefined,
    };
  }
  if (location.kind === 'file') {
    try {
      await mkdir(location.root, { recursive: true });
      const realRoot = await realpath(location.root);
      return {
        blobs: new FileBlobStore({ root: location.root, realRoot }),
        description: location.root,
        close: async () => undefined,
      };
    } catch (error) {
      throw new StorageUnreachableError(
        `TUNESMITH_STORAGE_URL: cannot use ${location.root} for audio (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): make the directory and let this user write to it.`,
      );
    }
  }
  // Loaded only here: the SDK is large, and a server on the data dir should not pay for it at every start.
  const { HeadBucketCommand, S3Client } = await import('@aws-sdk/client-s3');
  const { S3BlobStore } = await import('./s3-blob-store.ts');
  // The SDK warns, in nine lines at every start, that versions published from 2027 will need Node 22. The
  // version package-lock.json pins runs on Node 20, which is what we support, so the warning tells an operator
  // nothing they can act on; an operator who wants it back sets the variable to false.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const client = new S3Client({
    region: options.s3.region,
    forcePathStyle: options.s3.forcePathStyle,
    ...(options.s3.endpoint ? { endpoint: options.s3.endpoint } : {}),
  });
  const where = `bucket "${location.bucket}"${options.s3.endpoint ? ` at ${options.s3.endpoint}` : ''}`;
  try {
    await client.send(new HeadBucketCommand({ Bucket: location.bucket }));
  } catch (error) {
    client.destroy();
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    const reason =
      status === 404 ? 'it does not exist' : status === 403 ? 'access denied' : (error as Error).name || 'no answer';
    throw new StorageUnreachableError(
      `TUNESMITH_STORAGE_URL: cannot reach ${where} (${reason}): check the bucket name, AWS_ENDPOINT_URL, AWS_REGION and the credentials in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.`,
    );
  }
  return {
    blobs: new S3BlobStore({ bucket: location.bucket, prefix: location.prefix, client }),
    description: `s3://${location.bucket}/${location.prefix}${options.s3.endpoint ? ` at ${options.s3.endpoint}` : ''}`,
    close: async () => client.destroy(),
  };
}
