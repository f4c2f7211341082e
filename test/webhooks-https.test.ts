/**
 * HTTPS webhooks: the sender connects to the address the safety check pinned, yet verifies the receiver's
 * certificate against the URL's host name (SNI and name check), so pinning never weakens TLS.
 */
import test from 'ava';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { sendAttempt, type AttemptResult } from '../src/domain/webhooks/sender.ts';
import { runScript } from './helpers/process.ts';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const CERT = fixture('tls/hooks.test.crt');

interface Receiver {
  port: number;
  bodies: string[];
  serverNames: (string | false)[];
}

/** An HTTPS receiver on 127.0.0.1 with a self-signed certificate for hooks.test. */
async function startReceiver(t: import('ava').ExecutionContext): Promise<Receiver> {
  const [cert, key] = await Promise.all([readFile(CERT), readFile(fixture('tls/hooks.test.key'))]);
  const receiver: Receiver = { port: 0, bodies: [], serverNames: [] };
  const server: Server = createServer({ cert, key }, (req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      receiver.bodies.push(body);
      res.writeHead(204).end();
    });
  });
  server.on('secureConnection', (socket) =>
    receiver.serverNames.push((socket as unknown as { servername: string | false }).servername),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  receiver.port = (server.address() as AddressInfo).port;
  return receiver;
}

/** One attempt from a child process that trusts the test certificate (Node reads extra CAs only at start). */
async function attemptTrusting(url: string): Promise<AttemptResult> {
  const { stdout, stderr } = await runScript(fixture('send-attempt.ts'), [url, '127.0.0.1'], {
    NODE_EXTRA_CA_CERTS: CERT,
  });
  try {
    return JSON.parse(stdout) as AttemptResult;
  } catch {
    throw new Error(`send-attempt printed no result: ${stderr}`);
  }
}

test('a receiver whose certificate no trusted authority signed is refused, and gets no body', async (t) => {
  const receiver = await startReceiver(t);
  const result = await sendAttempt({
    url: `https://hooks.test:${receiver.port}/hook`,
    address: { address: '127.0.0.1', family: 4 },
    headers: {},
    body: '{"ok":true}',
    timeoutMs: 10_000,
  });
  t.is(result.statusCode, null);
  t.regex(result.error ?? '', /SELF_SIGNED|self.signed/i);
  t.deepEqual(receiver.bodies, []);
});

test('with the certificate trusted, the pinned connection delivers and names the URL host in SNI', async (t) => {
  const receiver = await startReceiver(t);
  const result = await attemptTrusting(`https://hooks.test:${receiver.port}/hook`);
  t.is(result.statusCode, 204, JSON.stringify(result));
  t.is(result.error, null);
  t.deepEqual(receiver.bodies, ['{"ok":true}']);
  t.deepEqual(receiver.serverNames, ['hooks.test']);
});

test('a trusted certificate for another name is refused: the pinned address does not stand in for the host name', async (t) => {
  const receiver = await startReceiver(t);
  const result = await attemptTrusting(`https://other.test:${receiver.port}/hook`);
  t.is(result.statusCode, null);
  t.regex(result.error ?? '', /ERR_TLS_CERT_ALTNAME_INVALID|altnames/i);
  t.deepEqual(receiver.bodies, []);
});
