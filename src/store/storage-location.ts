/**
 * Where the audio lives, as TUNESMITH_STORAGE_URL says: `file:///path` (a local dir or a shared volume) or
 * `s3://bucket/prefix` (any S3-compatible store). Unset, it is the data dir, as it always was.
 */
export type StorageLocation = { kind: 'file'; root: string } | { kind: 's3'; bucket: string; prefix: string };

/** How to reach an S3-compatible store, from the standard AWS variables (credentials stay the SDK's own chain). */
export interface S3Settings {
  /** AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL: a store other than AWS (MinIO, Garage, Ceph…); unset for AWS. */
  endpoint?: string | undefined;
  /** AWS_REGION or AWS_DEFAULT_REGION; stores other than AWS mostly accept any, so it defaults to us-east-1. */
  region: string;
  /** Bucket in the path rather than the host name: what most self-hosted stores need. */
  forcePathStyle: boolean;
}

/** Reads a storage URL; throws an Error whose message says what is wrong and what is accepted. */
export function parseStorageUrl(raw: string): StorageLocation {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`expected file:///absolute/path or s3://bucket/prefix, got "${raw}".`);
  }
  if (url.search !== '' || url.hash !== '') throw new Error(`expected a URL without query or fragment, got "${raw}".`);
  if (url.protocol === 'file:') {
    if (url.host !== '' && url.host !== 'localhost')
      throw new Error(`a file: URL names a path on this machine (file:///path), got host "${url.host}".`);
    const root = decodeURIComponent(url.pathname).replace(/\/+$/, '');
    if (root === '' || root.includes('\0')) throw new Error(`expected a directory path after file://, got "${raw}".`);
    return { kind: 'file', root };
  }
  if (url.protocol === 's3:') {
    if (url.username !== '' || url.password !== '')
      throw new Error('put the S3 credentials in AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, not in the URL.');
    const bucket = url.hostname;
    // Bucket names: 3–63 lower-case letters, digits, dots and hyphens (what S3 and its compatibles accept).
    if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
      throw new Error(
        `expected s3://bucket/prefix with a bucket name of 3–63 lower-case letters, digits, dots and hyphens, got "${raw}".`,
      );
    const path = decodeURIComponent(url.pathname).replace(/^\/+|\/+$/g, '');
    // Read from the raw text: the URL parser quietly resolves "a/../b" to "b".
    const rawPath = raw.slice(raw.indexOf(bucket) + bucket.length).replace(/^\/+|\/+$/g, '');
    if (
      rawPath.split('/').some((part) => part === '.' || part === '..' || /^%2e(%2e)?$/i.test(part)) ||
      path.includes('//')
    )
      throw new Error(`the prefix after the bucket cannot have empty, "." or ".." parts, got "${raw}".`);
    return { kind: 's3', bucket, prefix: path === '' ? '' : `${path}/` };
  }
  throw new Error(`expected a file:// or s3:// URL, got "${raw}".`);
}
