/**
 * The request-forgery guard for webhook URLs. At registration a URL is refused when its host is (or
 * resolves to) an address of address-policy.ts; at send time the host is resolved again and the
 * request is pinned to the address that was checked, so a DNS answer that changes in between (DNS
 * rebinding) cannot redirect it. `allowPrivate` (TUNESMITH_WEBHOOK_ALLOW_PRIVATE=1) turns the checks off.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { forbiddenAddressReason } from './address-policy.ts';
import { UnsafeUrlError } from './errors.ts';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses (the system resolver, like every other program here). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }));

export interface UrlSafetyOptions {
  allowPrivate: boolean;
  resolve?: Resolver;
}

/** How long a registration waits for DNS before accepting the name (it is checked again at every send). */
const REGISTRATION_LOOKUP_MS = 3_000;

/** The host of a URL without IPv6 brackets. */
const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** Names that are loopback by definition (RFC 6761), whatever a resolver says; "localhost." is the same name written fully qualified. */
const isLocalhostName = (host: string): boolean => {
  const name = host.replace(/\.+$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
};

function checkScheme(url: URL, param: string | undefined): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UnsafeUrlError(param, `only http and https are allowed, not ${url.protocol.slice(0, -1)}`);
  if (url.username !== '' || url.password !== '')
    throw new UnsafeUrlError(param, 'it contains a user name or password');
}

function checkAddresses(host: string, addresses: readonly ResolvedAddress[], param: string | undefined): void {
  for (const { address } of addresses) {
    const reason = forbiddenAddressReason(address);
    if (reason !== null)
      throw new UnsafeUrlError(
        param,
        address === host ? `${address} is ${reason}` : `${host} resolves to ${address}, ${reason}`,
      );
  }
}

/**
 * Refuses a URL given at registration (a callback_url, an endpoint). A name that cannot be resolved
 * right now is accepted: DNS may be down for a moment, and every send checks again anyway.
 */
export async function checkWebhookUrl(
  text: string,
  param: string | undefined,
  options: UrlSafetyOptions,
): Promise<void> {
  const url = new URL(text);
  checkScheme(url, param);
  if (options.allowPrivate) return;
  const host = hostOf(url);
  if (isIP(host) !== 0) return checkAddresses(host, [{ address: host, family: isIP(host) === 6 ? 6 : 4 }], param);
  if (isLocalhostName(host.toLowerCase())) throw new UnsafeUrlError(param, `${host} is a loopback name`);
  const resolve = options.resolve ?? systemResolver;
  let timer: NodeJS.Timeout | undefined;
  const addresses = await Promise.race([
    resolve(host).catch(() => []),
    new Promise<ResolvedAddress[]>((done) => (timer = setTimeout(() => done([]), REGISTRATION_LOOKUP_MS))),
  ]).finally(() => clearTimeout(timer));
  checkAddresses(host, addresses, param);
}

/**
 * The address a send must connect to: resolved now, every answer checked (a name with one private
 * answer among public ones is refused), the first one used. Throws UnsafeUrlError or the resolver's error.
 */
export async function resolveForSend(text: string, options: UrlSafetyOptions): Promise<ResolvedAddress> {
  const url = new URL(text);
  checkScheme(url, undefined);
  const host = hostOf(url);
  const literal = isIP(host);
  const addresses: ResolvedAddress[] =
    literal !== 0
      ? [{ address: host, family: literal === 6 ? 6 : 4 }]
      : await (options.resolve ?? systemResolver)(host);
  const [first] = addresses;
  if (!first) throw new Error(`${host} did not resolve to any address`);
  if (!options.allowPrivate) {
    if (literal === 0 && isLocalhostName(host.toLowerCase()))
      throw new UnsafeUrlError(undefined, `${host} is a loopback name`);
    checkAddresses(host, addresses, undefined);
  }
  return first;
}
