/**
 * The behaviour every BlobStore must have, whatever keeps the bytes: run with a factory for each backend
 * (test/store-contract.test.ts runs it on a directory). Each test gets a fresh, empty store.
 */
import type { ExecutionContext, TestFn } from 'ava';
import type { Readable } from 'node:stream';
import type { BlobStore } from '../../src/store/blob-store.ts';
import { BlobNotFoundError, UnsafePathError } from '../../src/store/errors.ts';

/** Makes a fresh store for one test; servers it starts are the test's to tear down. */
export type BlobStoreFactory = (t: ExecutionContext) => Promise<{ blobs: BlobStore; close(): Promise<void> }>;

const bytesOf = async (stream: Readable): Promise<number[]> => [...Buffer.concat(await stream.toArray())];

export function blobStoreContract(test: TestFn, backend: string, factory: BlobStoreFactory): void {
  const setup = async (t: ExecutionContext) => {
    const { blobs, close } = await factory(t);
    t.teardown(close);
    return blobs;
  };
  const title = (claim: string) => `${backend} blobs: ${claim}`;
  const KEY = 'audio/acct_1/gen_1.wav';

  test(title('a blob reads back whole, with its size and content type'), async (t) => {
    const blobs = await setup(t);
    await blobs.put(KEY, new Uint8Array([1, 2, 3, 4, 5]), { contentType: 'audio/wav' });
    t.deepEqual(await blobs.stat(KEY), { size: 5, contentType: 'audio/wav' });
    t.deepEqual(await bytesOf(await blobs.open(KEY)), [1, 2, 3, 4, 5]);
  });

  test(title('a range reads the bytes from start to end, both included'), async (t) => {
    const blobs = await setup(t);
    await blobs.put(KEY, new Uint8Array([1, 2, 3, 4, 5]), { contentType: 'audio/wav' });
    t.deepEqual(await bytesOf(await blobs.open(KEY, { start: 1, end: 3 })), [2, 3, 4]);
  });

  test(title('a second put replaces the first'), async (t) => {
    const blobs = await setup(t);
    await blobs.put(KEY, new Uint8Array([1, 2, 3]), { contentType: 'audio/wav' });
    await blobs.put(KEY, new Uint8Array([9]), { contentType: 'audio/wav' });
    t.deepEqual(await bytesOf(await blobs.open(KEY)), [9]);
  });

  test(title('a missing blob has no stat and opening it is a BlobNotFoundError'), async (t) => {
    const blobs = await setup(t);
    t.is(await blobs.stat(KEY), undefined);
    await t.throwsAsync(blobs.open(KEY), { instanceOf: BlobNotFoundError });
  });

  test(title('a deleted blob is gone, and deleting it again is no error'), async (t) => {
    const blobs = await setup(t);
    await blobs.put(KEY, new Uint8Array([1]), { contentType: 'audio/wav' });
    await blobs.delete(KEY);
    t.is(await blobs.stat(KEY), undefined);
    await t.notThrowsAsync(blobs.delete(KEY));
  });

  test(title('the last byte alone is a range too, and a large blob reads back byte for byte'), async (t) => {
    const blobs = await setup(t);
    const large = new Uint8Array(3 * 1024 * 1024).map((_, i) => (i * 7919) % 251);
    await blobs.put(KEY, large, { contentType: 'audio/wav' });
    t.deepEqual(await bytesOf(await blobs.open(KEY, { start: large.length - 1, end: large.length - 1 })), [
      large.at(-1)!,
    ]);
    t.true(Buffer.from(large).equals(Buffer.from(await bytesOf(await blobs.open(KEY)))));
  });

  test(
    title('a key that would climb out of the store ("..") is refused when written and names nothing when read'),
    async (t) => {
      const blobs = await setup(t);
      const unsafe = '../escape.wav';
      await t.throwsAsync(blobs.put(unsafe, new Uint8Array([1]), { contentType: 'audio/wav' }), {
        instanceOf: UnsafePathError,
      });
      t.is(await blobs.stat(unsafe), undefined);
      await t.throwsAsync(blobs.open(unsafe), { instanceOf: BlobNotFoundError });
    },
  );
}
