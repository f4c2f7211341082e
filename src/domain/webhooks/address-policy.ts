/**
 * Which IP addresses a webhook may never be sent to: everything that is not the public internet
 * (loopback, private, link-local, carrier-grade NAT, multicast, unspecified, reserved, cloud metadata),
 * in IPv4 and IPv6, including IPv6 forms that embed an IPv4 address (mapped, compatible, SIIT, NAT64, 6to4).
 */
import { isIP } from 'node:net';

type V4Range = readonly [base: string, bits: number, reason: string];

// Order matters: the first match names the reason, so the metadata address comes before link-local.
const V4_RANGES: readonly V4Range[] = [
  ['169.254.169.254', 32, 'a cloud metadata address'],
  ['0.0.0.0', 8, 'an unspecified address'],
  ['10.0.0.0', 8, 'a private address'],
  ['100.64.0.0', 10, 'a carrier-grade NAT address'],
  ['127.0.0.0', 8, 'a loopback address'],
  ['169.254.0.0', 16, 'a link-local address'],
  ['172.16.0.0', 12, 'a private address'],
  ['192.0.0.0', 24, 'a reserved address'],
  ['192.0.2.0', 24, 'a documentation address'],
  ['192.88.99.0', 24, 'a reserved address'],
  ['192.168.0.0', 16, 'a private address'],
  ['198.18.0.0', 15, 'a reserved address'],
  ['198.51.100.0', 24, 'a documentation address'],
  ['203.0.113.0', 24, 'a documentation address'],
  ['224.0.0.0', 4, 'a multicast address'],
  ['240.0.0.0', 4, 'a reserved address'],
];

function v4ToNumber(address: string): number {
  return address.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function v4Reason(value: number): string | null {
  for (const [base, bits, reason] of V4_RANGES) {
    const size = 2 ** (32 - bits);
    const start = v4ToNumber(base);
    if (value >= start && value < start + size) return reason;
  }
  return null;
}

const numberToV4 = (value: number): string =>
  [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');

/** The eight 16-bit groups of an IPv6 address (zone id dropped, a trailing dotted IPv4 part converted). */
function v6Groups(address: string): number[] {
  let text = address.replace(/%.*$/, '').toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = v4ToNumber(dotted[0]);
    text = `${text.slice(0, -dotted[0].length)}${Math.floor(v4 / 65536).toString(16)}:${(v4 % 65536).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const zeros = tail === undefined ? [] : Array.from({ length: 8 - left.length - right.length }, () => 0);
  return [...left, ...zeros, ...right];
}

type V6Range = readonly [prefix: string, bits: number, reason: string | null];

/**
 * The IANA IPv6 Special-Purpose Address Registry (2025), beyond the forms above that embed an IPv4 address.
 * The first match decides, so the more specific blocks come first; null marks the few blocks the registry
 * calls globally reachable (public anycast services), which a webhook may use like any public address.
 */
const V6_RANGES: readonly V6Range[] = [
  ['fd00:ec2::254', 128, 'a cloud metadata address'],
  ['2001:1::1', 128, null],
  ['2001:1::2', 128, null],
  ['2001:1::3', 128, null],
  ['2001:3::', 32, null],
  ['2001:4:112::', 48, null],
  ['2001:20::', 28, null],
  ['2001:30::', 28, null],
  ['2001::', 32, 'a Teredo tunnel address'],
  ['2001:2::', 48, 'a benchmarking address'],
  ['2001::', 23, 'an IETF protocol assignment'],
  ['2001:db8::', 32, 'a documentation address'],
  ['3fff::', 20, 'a documentation address'],
  ['100::', 64, 'a discard-only address'],
  ['100:0:0:1::', 64, 'a dummy address'],
  ['5f00::', 16, 'a segment routing (SRv6) address'],
  ['fc00::', 7, 'a private (unique local) address'],
  ['fe80::', 10, 'a link-local address'],
  ['fec0::', 10, 'a site-local address'],
  ['ff00::', 8, 'a multicast address'],
];

const v6Value = (address: string): bigint => v6Groups(address).reduce((n, group) => (n << 16n) | BigInt(group), 0n);

/** The registry's prefixes as numbers, parsed once at load rather than on every check. */
const V6_BLOCKS = V6_RANGES.map(([prefix, bits, reason]) => {
  const shift = BigInt(128 - bits);
  return { shift, prefix: v6Value(prefix) >> shift, reason };
});

function v6Reason(address: string): string | null {
  const g = v6Groups(address);
  // The IPv4 address in groups `hi` and `lo` (an address isIP accepted always has all eight groups).
  const embeddedV4 = (hi: number, lo: number) => (g[hi] ?? 0) * 65536 + (g[lo] ?? 0);
  const allZero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const viaV4 = (kind: string, v4: number) => {
    const reason = v4Reason(v4);
    return reason === null ? null : `${kind} of ${numberToV4(v4)}, ${reason}`;
  };

  if (allZero(0, 8)) return 'an unspecified address';
  if (allZero(0, 7) && g[7] === 1) return 'a loopback address';
  if (allZero(0, 5) && g[5] === 0xffff) return viaV4('an IPv4-mapped form', embeddedV4(6, 7)) ?? null;
  if (allZero(0, 6)) return viaV4('an IPv4-compatible form', embeddedV4(6, 7)) ?? 'a reserved address';
  // SIIT (::ffff:0:0/96) and local-use NAT64 (64:ff9b:1::/48) are translated by the operator's own gateway, whatever they embed.
  if (allZero(0, 4) && g[4] === 0xffff && g[5] === 0) {
    return viaV4('an IPv4-translated (SIIT) form', embeddedV4(6, 7)) ?? 'an IPv4-translated (SIIT) address';
  }
  if (g[0] === 0x64 && g[1] === 0xff9b && allZero(2, 6)) return viaV4('a NAT64 form', embeddedV4(6, 7));
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return 'a local-use NAT64 address';
  if (g[0] === 0x2002) return viaV4('a 6to4 form', embeddedV4(1, 2));
  const value = v6Value(address);
  for (const { shift, prefix, reason } of V6_BLOCKS) if (value >> shift === prefix) return reason;
  return null;
}

/** Why a webhook may not go to this IP address, or null when it is a public address. */
export function forbiddenAddressReason(address: string): string | null {
  switch (isIP(address.replace(/%.*$/, ''))) {
    case 4:
      return v4Reason(v4ToNumber(address));
    case 6:
      return v6Reason(address);
    default:
      return 'not an IP address';
  }
}
