/**
 * A real S3-protocol server for tests: s3rver (npm), listening on an ephemeral loopback port and keeping its
 * objects in a temp dir, with one bucket made. The store under test talks to it through the AWS SDK's own
 * client over HTTP, as it would to any S3-compatible store.
 */
import { S3Client } from '@aws-sdk/client-s3';
import type { ExecutionContext } from 'ava';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** Where s3rver keeps the objects on disk (to check from outside that bytes landed in the bucket). */
  directory: string;
  /** The standard AWS variables a Tunesmith process needs to reach it. */
  env: Record<string, string>;
  client(): S3Client;
}

export async function startS3(t: ExecutionContext, bucket = 'tunesmith-test'): Promise<TestS3> {
  const directory = await mkdtemp(join(tmpdir(), 'tunesmith-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const clients: S3Client[] = [];
  t.teardown(async () => {
    for (const client of clients) client.destroy();
    await server.close();
    await rm(directory, { recursive: true, force: true });
  });
  // s3rver checks signatures against these fixed credentials.
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  return {
    endpoint,
    bucket,
    directory,
    env: {
      AWS_ENDPOINT_URL: endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    },
    client: () => {
      const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials });
      clients.push(client);
      return client;
    },
  };
}
