import test from 'ava';
import { availableParallelism } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { ConfigError, loadConfig } from '../src/config.ts';

test('an empty environment gives the documented defaults', (t) => {
  const config = loadConfig({});
  t.like(config, {
    port: 3000,
    host: '127.0.0.1',
    publicUrl: 'http://127.0.0.1:3000',
    workers: availableParallelism(),
    downloadTtlSeconds: 86_400,
  });
  t.is(config.dataDir, resolve('./data'));
});

test('TUNESMITH_WORKERS=0 with a database is an API-only node, and the job lease defaults to 60 s', (t) => {
  t.like(loadConfig({ TUNESMITH_WORKERS: '0', TUNESMITH_DATABASE_URL: 'postgres://db.example/tunesmith' }), {
    workers: 0,
    jobLeaseSeconds: 60,
  });
  t.is(loadConfig({ TUNESMITH_JOB_LEASE_SECONDS: '15' }).jobLeaseSeconds, 15);
});

test('the data dir is resolved to an absolute path', (t) => {
  const config = loadConfig({ TUNESMITH_DATA_DIR: 'relative/dir' });
  t.true(isAbsolute(config.dataDir));
  t.is(config.dataDir, resolve('relative/dir'));
});

test('the default public URL follows HOST and PORT', (t) => {
  t.is(loadConfig({ HOST: 'localhost', PORT: '8080' }).publicUrl, 'http://localhost:8080');
  t.is(loadConfig({ HOST: '::1', PORT: '8080' }).publicUrl, 'http://[::1]:8080');
});

test('a wildcard bind address gives a reachable default public URL', (t) => {
  t.is(loadConfig({ HOST: '0.0.0.0', PORT: '3000' }).publicUrl, 'http://127.0.0.1:3000');
});

test('TUNESMITH_PUBLIC_URL loses its trailing slash', (t) => {
  t.is(
    loadConfig({ TUNESMITH_PUBLIC_URL: 'https://music.example.com/api/' }).publicUrl,
    'https://music.example.com/api',
  );
});

test('empty values mean the default', (t) => {
  t.is(loadConfig({ PORT: '', TUNESMITH_WORKERS: '  ' }).port, 3000);
});

for (const [variable, value, pattern] of [
  ['PORT', '70000', /PORT: expected a whole number from 0 to 65535, got "70000"/],
  ['PORT', 'http', /PORT: expected a whole number/],
  ['PORT', '-1', /PORT/],
  ['PORT', '3000.5', /PORT/],
  ['TUNESMITH_WORKERS', '0', /TUNESMITH_WORKERS: 0 \(an API-only node\) needs TUNESMITH_DATABASE_URL/],
  ['TUNESMITH_JOB_LEASE_SECONDS', '5', /TUNESMITH_JOB_LEASE_SECONDS: expected a whole number from 10 to 3600/],
  ['TUNESMITH_DATABASE_URL', 'mysql://db/x', /TUNESMITH_DATABASE_URL: expected a PostgreSQL URL/],
  ['TUNESMITH_WORKERS', '1e3', /TUNESMITH_WORKERS/],
  ['TUNESMITH_DOWNLOAD_TTL', '10', /TUNESMITH_DOWNLOAD_TTL: expected a whole number from 60/],
  ['TUNESMITH_PUBLIC_URL', 'example.com', /TUNESMITH_PUBLIC_URL: expected an absolute http/],
  ['TUNESMITH_PUBLIC_URL', 'ftp://example.com', /TUNESMITH_PUBLIC_URL: expected an http/],
  ['TUNESMITH_PUBLIC_URL', 'https://example.com/?a=1', /without credentials, query or fragment/],
  ['HOST', 'bad host', /HOST: expected a host name/],
  ['TUNESMITH_REQUEST_TIMEOUT', '0', /TUNESMITH_REQUEST_TIMEOUT: expected a whole number from 1 to 3600/],
  ['TUNESMITH_IDLE_TIMEOUT', '1.5', /TUNESMITH_IDLE_TIMEOUT: expected a whole number/],
] as const) {
  test(`${variable}=${JSON.stringify(value)} is refused with a message naming it`, (t) => {
    const error = t.throws(() => loadConfig({ [variable]: value }), { instanceOf: ConfigError });
    t.regex(error?.message ?? '', pattern);
    t.is(error?.variable, variable);
  });
}

test('TUNESMITH_LOG_LEVEL defaults to info and takes a pino level in any case', (t) => {
  t.is(loadConfig({}).logLevel, 'info');
  t.is(loadConfig({ TUNESMITH_LOG_LEVEL: 'DEBUG' }).logLevel, 'debug');
});

test('an unknown TUNESMITH_LOG_LEVEL is refused with the levels it accepts', (t) => {
  const error = t.throws(() => loadConfig({ TUNESMITH_LOG_LEVEL: 'loud' }), { instanceOf: ConfigError });
  t.regex(
    error?.message ?? '',
    /^TUNESMITH_LOG_LEVEL: expected one of fatal, error, warn, info, debug, trace, silent, got "loud"\.$/,
  );
});

test('the request and idle limits default to 30 s and take whole seconds', (t) => {
  t.like(loadConfig({}), { requestTimeoutSeconds: 30, idleTimeoutSeconds: 30 });
  t.like(loadConfig({ TUNESMITH_REQUEST_TIMEOUT: '5', TUNESMITH_IDLE_TIMEOUT: '120' }), {
    requestTimeoutSeconds: 5,
    idleTimeoutSeconds: 120,
  });
});

test('TUNESMITH_DATABASE_URL is kept when it is a PostgreSQL URL naming a database, and unset means the files', (t) => {
  t.is(loadConfig({}).databaseUrl, undefined);
  t.is(
    loadConfig({ TUNESMITH_DATABASE_URL: 'postgres://u:p@db.example.com:5432/tunesmith' }).databaseUrl,
    'postgres://u:p@db.example.com:5432/tunesmith',
  );
  t.is(loadConfig({ TUNESMITH_DATABASE_URL: 'postgresql://db/tunesmith' }).databaseUrl, 'postgresql://db/tunesmith');
});

test('a TUNESMITH_DATABASE_URL that is not PostgreSQL or names no database is a ConfigError that does not echo it', (t) => {
  for (const bad of ['mysql://u:secret@db/tunesmith', 'postgres://u:secret@db', 'not a url secret']) {
    const error = t.throws(() => loadConfig({ TUNESMITH_DATABASE_URL: bad }), { instanceOf: ConfigError });
    t.regex(error!.message, /^TUNESMITH_DATABASE_URL: expected a PostgreSQL URL naming a database/);
    t.false(error!.message.includes('secret'));
  }
});
