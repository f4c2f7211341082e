/** TUNESMITH_STORAGE_URL and the AWS variables as the config reads them: accepted forms and one-line refusals. */
import test from 'ava';
import { ConfigError, loadConfig } from '../src/config.ts';
import { parseStorageUrl } from '../src/store/storage-location.ts';

test('unset, the audio stays in the data dir', (t) => {
  t.is(loadConfig({}).storage, undefined);
});

test('file:///path names a directory on this machine', (t) => {
  t.deepEqual(parseStorageUrl('file:///srv/tunesmith/audio/'), { kind: 'file', root: '/srv/tunesmith/audio' });
  t.deepEqual(parseStorageUrl('file:///mnt/shared%20volume'), { kind: 'file', root: '/mnt/shared volume' });
});

test('s3://bucket/prefix names a bucket and a prefix ending in a slash, or none', (t) => {
  t.deepEqual(parseStorageUrl('s3://studio-audio/tunesmith/prod'), {
    kind: 's3',
    bucket: 'studio-audio',
    prefix: 'tunesmith/prod/',
  });
  t.deepEqual(parseStorageUrl('s3://studio-audio'), { kind: 's3', bucket: 'studio-audio', prefix: '' });
});

test('bad storage URLs are refused with a sentence that says what is accepted', (t) => {
  const refusals: [string, RegExp][] = [
    ['ftp://host/x', /expected a file:\/\/ or s3:\/\/ URL/],
    ['file://otherhost/x', /names a path on this machine/],
    ['s3://AB/x', /bucket name of 3–63 lower-case letters/],
    ['s3://key:secret@bucket/x', /AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, not in the URL/],
    ['s3://bucket/a/../b', /cannot have empty, "\." or "\.\." parts/],
    ['not a url', /expected file:\/\/\/absolute\/path or s3:\/\/bucket\/prefix/],
  ];
  for (const [raw, message] of refusals) t.throws(() => parseStorageUrl(raw), { message }, raw);
  const error = t.throws(() => loadConfig({ TUNESMITH_STORAGE_URL: 'ftp://host/x' }), { instanceOf: ConfigError });
  t.is(error?.variable, 'TUNESMITH_STORAGE_URL');
});

test('the S3 endpoint and region come from the standard AWS variables; a custom endpoint means path-style buckets', (t) => {
  t.deepEqual(loadConfig({}).s3, { endpoint: undefined, region: 'us-east-1', forcePathStyle: false });
  t.deepEqual(loadConfig({ AWS_ENDPOINT_URL: 'http://127.0.0.1:9000', AWS_DEFAULT_REGION: 'eu-west-1' }).s3, {
    endpoint: 'http://127.0.0.1:9000',
    region: 'eu-west-1',
    forcePathStyle: true,
  });
  t.is(
    loadConfig({ AWS_ENDPOINT_URL: 'http://a:1', AWS_ENDPOINT_URL_S3: 'http://b:2', AWS_REGION: 'x' }).s3?.endpoint,
    'http://b:2',
  );
  t.false(loadConfig({ AWS_ENDPOINT_URL: 'https://s3.example.com', TUNESMITH_S3_PATH_STYLE: '0' }).s3?.forcePathStyle);
  t.throws(() => loadConfig({ AWS_ENDPOINT_URL: 'localhost:9000' }), {
    instanceOf: ConfigError,
    message: /AWS_ENDPOINT_URL: expected an http:\/\/ or https:\/\/ URL/,
  });
});
