/**
 * TUNESMITH_STORAGE_URL, process level: a real server keeps its audio in an S3-compatible bucket (s3rver, over
 * HTTP, through the AWS SDK) or in another directory, serves the signed links from there with ranges, and
 * refuses to start, in one line, when the store cannot be reached.
 */
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { openStore } from '../src/store/index.ts';
import { openPostgresRepository } from '../src/store/postgres/index.ts';
import { freshDatabase } from './helpers/postgres.ts';
import { eventually, startServerProcess, startWorkerProcess, tempDataDir } from './helpers/process.ts';
import { startS3 } from './helpers/s3.ts';

interface Task {
  id: string;
  status: string;
  download_urls: { wav: string; mp3: string; midi: string } | null;
}

async function seedKey(dataDir: string): Promise<string> {
  const store = await openStore({ dataDir });
  const account = await store.createAccount({ plan: 'developer' });
  const { key } = await store.createKey(account.id);
  await store.close();
  return key;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));
}

/** Posts a 30 s track and waits for it to end; returns the finished task. */
async function render(url: string, key: string): Promise<Task> {
  const api = (path: string, init: RequestInit = {}) =>
    fetch(url + path, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } });
  const created = (await (
    await api('/v1/generate', { method: 'POST', body: JSON.stringify({ prompt: 'a calm piano piece', duration: 30 }) })
  ).json()) as Task;
  return eventually(
    async () => {
      const task = (await (await api(`/v1/generation/${created.id}?wait=20`)).json()) as Task;
      return task.status === 'completed' || task.status === 'failed' ? task : undefined;
    },
    180_000,
    'the task to end',
  );
}

/** The stream ffprobe finds in a file: an independent decoder's view of what was served. */
function probe(
  bytes: Buffer,
  dir: string,
  name: string,
): Promise<{ codec_name: string; sample_rate: string; channels: number; duration: string }> {
  const file = join(dir, name);
  return writeFile(file, bytes).then(() => {
    const out = execFileSync(
      'ffprobe',
      ['-v', 'error', '-show_entries', 'stream=codec_name,sample_rate,channels,duration', '-of', 'json', file],
      { encoding: 'utf8' },
    );
    return (
      JSON.parse(out) as { streams: { codec_name: string; sample_rate: string; channels: number; duration: string }[] }
    ).streams[0]!;
  });
}

test('with s3://bucket/prefix the audio goes to the bucket, not the data dir, and the signed links serve it whole and in ranges', async (t) => {
  const s3 = await startS3(t);
  const dataDir = await tempDataDir(t);
  const key = await seedKey(dataDir);
  const server = await startServerProcess(t, dataDir, {
    ...s3.env,
    TUNESMITH_STORAGE_URL: `s3://${s3.bucket}/studio-a`,
  });
  t.truthy(server.url, server.output());
  t.regex(server.output(), new RegExp(`audio in s3://${s3.bucket}/studio-a/ at ${s3.endpoint}`));

  const task = await render(server.url, key);
  t.is(task.status, 'completed', server.output());
  t.deepEqual(await filesUnder(join(dataDir, 'audio')), [], 'no audio in the data dir');
  const inBucket = await filesUnder(s3.directory);
  t.true(
    inBucket.some((file) => file.includes(`studio-a/audio/`) && file.includes(`${task.id}.wav`)),
    inBucket.join('\n'),
  );

  const wav = await fetch(task.download_urls!.wav);
  t.is(wav.status, 200);
  t.is(wav.headers.get('content-type'), 'audio/wav');
  const whole = Buffer.from(await wav.arrayBuffer());
  const stream = await probe(whole, dataDir, 'served.wav');
  t.is(stream.codec_name, 'pcm_s16le');
  t.is(Math.round(Number(stream.duration)), 30);

  const ranged = await fetch(task.download_urls!.wav, { headers: { range: 'bytes=100-1123' } });
  t.is(ranged.status, 206);
  t.is(ranged.headers.get('content-range'), `bytes 100-1123/${whole.length}`);
  t.true(Buffer.from(await ranged.arrayBuffer()).equals(whole.subarray(100, 1124)));

  // The MP3 is made on its first download (issue 27) and stored in the bucket beside the WAV.
  const mp3Stored = async () => (await filesUnder(s3.directory)).some((file) => file.includes(`${task.id}.mp3`));
  t.false(await mp3Stored());
  const mp3 = await probe(
    Buffer.from(await (await fetch(task.download_urls!.mp3)).arrayBuffer()),
    dataDir,
    'served.mp3',
  );
  t.is(mp3.codec_name, 'mp3');
  // Streamed as it was encoded: stored as the download ends.
  t.true(await eventually(async () => ((await mp3Stored()) ? true : undefined), 30_000, 'the MP3 in the bucket'));
});

test("an API node and a worker on two machines' worth of data dirs share a bucket: the worker stores there, the API node serves it", async (t) => {
  t.timeout(240_000);
  const s3 = await startS3(t);
  const url = await freshDatabase(t);
  const repository = await openPostgresRepository({ url });
  const account = await repository.createAccount({ plan: 'developer' });
  const { key } = await repository.createKey(account.id);
  await repository.close();
  const env = { ...s3.env, TUNESMITH_DATABASE_URL: url, TUNESMITH_STORAGE_URL: `s3://${s3.bucket}/cluster` };
  const [apiDir, workerDir] = [await tempDataDir(t), await tempDataDir(t)];
  const api = await startServerProcess(t, apiDir, { ...env, TUNESMITH_WORKERS: '0' });
  const worker = await startWorkerProcess(t, workerDir, { ...env, TUNESMITH_WORKERS: '1' });
  t.truthy(api.url, api.output());
  t.truthy(worker.url, worker.output());

  const task = await render(api.url, key);
  t.is(task.status, 'completed', worker.output());
  t.deepEqual(
    [...(await filesUnder(join(apiDir, 'audio'))), ...(await filesUnder(join(workerDir, 'audio')))],
    [],
    'no audio in either data dir',
  );
  const whole = Buffer.from(await (await fetch(task.download_urls!.wav)).arrayBuffer());
  t.is(Math.round(Number((await probe(whole, apiDir, 'served.wav')).duration)), 30);
  const ranged = await fetch(task.download_urls!.wav, { headers: { range: `bytes=${whole.length - 100}-` } });
  t.is(ranged.status, 206);
  t.true(Buffer.from(await ranged.arrayBuffer()).equals(whole.subarray(whole.length - 100)));
});

test('with file:///other/dir the audio goes to that directory, and the data dir keeps only the records', async (t) => {
  const dataDir = await tempDataDir(t);
  const audioDir = join(await tempDataDir(t), 'shared-volume');
  const key = await seedKey(dataDir);
  const server = await startServerProcess(t, dataDir, { TUNESMITH_STORAGE_URL: `file://${audioDir}` });
  t.truthy(server.url, server.output());
  const task = await render(server.url, key);
  t.is(task.status, 'completed', server.output());
  t.deepEqual(await filesUnder(join(dataDir, 'audio')), []);
  t.true((await filesUnder(audioDir)).some((file) => file.endsWith(`${task.id}.wav`)));
  const wav = await fetch(task.download_urls!.wav);
  t.is(wav.status, 200);
  t.is(Math.round(Number((await probe(Buffer.from(await wav.arrayBuffer()), dataDir, 'served.wav')).duration)), 30);
});

test('a bucket that does not exist stops the start with one line naming the variable, the bucket and what to check', async (t) => {
  const s3 = await startS3(t);
  const dataDir = await tempDataDir(t);
  const server = await startServerProcess(t, dataDir, { ...s3.env, TUNESMITH_STORAGE_URL: 's3://no-such-bucket/x' });
  const { code } = await server.exited;
  t.is(server.url, '');
  t.is(code, 1);
  t.regex(
    server.output().trim(),
    /^TUNESMITH_STORAGE_URL: cannot reach bucket "no-such-bucket" at http:\/\/127\.0\.0\.1:\d+ \(it does not exist\): check the bucket name[^\n]*$/,
  );
});

test('a storage URL that is neither file:// nor s3:// stops the start with one line saying what is accepted', async (t) => {
  const dataDir = await tempDataDir(t);
  const server = await startServerProcess(t, dataDir, { TUNESMITH_STORAGE_URL: 'ftp://example.com/audio' });
  const { code } = await server.exited;
  t.is(code, 1);
  t.regex(
    server.output().trim(),
    /^TUNESMITH_STORAGE_URL: expected a file:\/\/ or s3:\/\/ URL, got "ftp:\/\/example\.com\/audio"\.$/,
  );
});
