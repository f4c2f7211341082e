/**
 * The blob store over an S3-compatible bucket (AWS S3, or any store that speaks its protocol), through the AWS
 * SDK's own client. Keys sit under an optional prefix, so one bucket can hold several installations. S3 makes
 * a put whole or nothing by itself, so a reader never sees half a file, as the data dir's store promises.
 * Download links stay ours: the API node that verifies a link reads the object and sends it, ranges included.
 */
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  type S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import type { BlobInfo, BlobRange, BlobStore } from './blob-store.ts';
import { BlobNotFoundError, UnsafePathError } from './errors.ts';

export interface S3BlobStoreOptions {
  bucket: string;
  /** Put before every key, without a leading slash; '' or ending in '/'. */
  prefix: string;
  /** The client, already told its endpoint, region and credentials. */
  client: S3Client;
}

export class S3BlobStore implements BlobStore {
  readonly #o: S3BlobStoreOptions;

  constructor(options: S3BlobStoreOptions) {
    this.#o = options;
  }

  async put(key: string, bytes: Uint8Array, options: { contentType: string }): Promise<void> {
    await this.#o.client.send(
      new PutObjectCommand({
        Bucket: this.#o.bucket,
        Key: this.#keyToChange(key),
        Body: bytes,
        ContentType: options.contentType,
        ContentLength: bytes.byteLength,
      }),
    );
  }

  async open(key: string, range?: BlobRange): Promise<Readable> {
    try {
      const answer = await this.#o.client.send(
        new GetObjectCommand({
          Bucket: this.#o.bucket,
          Key: this.#key(key),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      // In Node the SDK's body is a Readable (an IncomingMessage) already.
      if (!(answer.Body instanceof Readable))
        throw new Error('The S3 client returned a body that is not a Node stream.');
      return answer.Body;
    } catch (error) {
      if (isMissing(error)) throw new BlobNotFoundError(key);
      throw error;
    }
  }

  async stat(key: string): Promise<BlobInfo | undefined> {
    try {
      const head = await this.#o.client.send(new HeadObjectCommand({ Bucket: this.#o.bucket, Key: this.#key(key) }));
      return { size: head.ContentLength ?? 0, contentType: head.ContentType ?? 'application/octet-stream' };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    // S3 answers a delete of a missing key with success, as the contract asks.
    await this.#o.client.send(new DeleteObjectCommand({ Bucket: this.#o.bucket, Key: this.#keyToChange(key) }));
  }

  /**
   * Keys are the service's own ("audio/<account>/<id>.wav"). One with an empty or dot segment would still be a
   * distinct object name in S3, but it would mean something else on a directory, so both stores refuse it
   * alike: as missing when read, as unsafe when written.
   */
  #key(key: string): string {
    if (!safeKey(key)) throw new BlobNotFoundError(key);
    return `${this.#o.prefix}${key}`;
  }

  #keyToChange(key: string): string {
    if (!safeKey(key)) throw new UnsafePathError(key);
    return `${this.#o.prefix}${key}`;
  }
}

function safeKey(key: string): boolean {
  return !key.includes('\0') && !key.split('/').some((part) => part === '..' || part === '.' || part === '');
}

function isMissing(error: unknown): boolean {
  if (error instanceof S3ServiceException) {
    return error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404;
  }
  return error instanceof BlobNotFoundError;
}
