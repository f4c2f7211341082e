/**
 * Every block of the IANA IPv6 Special-Purpose Address Registry (iana.org/assignments/iana-ipv6-special-registry,
 * as of 2025), checked at its first, middle and last address: a webhook may go to a block only where the registry
 * calls it globally reachable. Blocks that embed an IPv4 address are judged by that address (a separate test).
 */
import test from 'ava';
import { forbiddenAddressReason } from '../src/domain/webhooks/address-policy.ts';

interface Block {
  prefix: string;
  bits: number;
  name: string;
  globallyReachable: boolean;
}

const REGISTRY: readonly Block[] = [
  { prefix: '::1', bits: 128, name: 'Loopback Address', globallyReachable: false },
  { prefix: '::', bits: 128, name: 'Unspecified Address', globallyReachable: false },
  { prefix: '64:ff9b:1::', bits: 48, name: 'IPv4-IPv6 Translation (local use)', globallyReachable: false },
  { prefix: '100::', bits: 64, name: 'Discard-Only Address Block', globallyReachable: false },
  { prefix: '100:0:0:1::', bits: 64, name: 'Dummy IPv6 Prefix', globallyReachable: false },
  { prefix: '2001::', bits: 23, name: 'IETF Protocol Assignments', globallyReachable: false },
  { prefix: '2001::', bits: 32, name: 'TEREDO', globallyReachable: false },
  { prefix: '2001:1::1', bits: 128, name: 'Port Control Protocol Anycast', globallyReachable: true },
  { prefix: '2001:1::2', bits: 128, name: 'TURN Anycast', globallyReachable: true },
  { prefix: '2001:1::3', bits: 128, name: 'DNS-SD Service Registration Protocol Anycast', globallyReachable: true },
  { prefix: '2001:2::', bits: 48, name: 'Benchmarking', globallyReachable: false },
  { prefix: '2001:3::', bits: 32, name: 'AMT', globallyReachable: true },
  { prefix: '2001:4:112::', bits: 48, name: 'AS112-v6', globallyReachable: true },
  { prefix: '2001:10::', bits: 28, name: 'Deprecated (previously ORCHID)', globallyReachable: false },
  { prefix: '2001:20::', bits: 28, name: 'ORCHIDv2', globallyReachable: true },
  { prefix: '2001:30::', bits: 28, name: 'Drone Remote ID Protocol Entity Tags', globallyReachable: true },
  { prefix: '2001:db8::', bits: 32, name: 'Documentation', globallyReachable: false },
  { prefix: '2620:4f:8000::', bits: 48, name: 'Direct Delegation AS112 Service', globallyReachable: true },
  { prefix: '3fff::', bits: 20, name: 'Documentation', globallyReachable: false },
  { prefix: '5f00::', bits: 16, name: 'Segment Routing (SRv6) SIDs', globallyReachable: false },
  { prefix: 'fc00::', bits: 7, name: 'Unique-Local', globallyReachable: false },
  { prefix: 'fe80::', bits: 10, name: 'Link-Local Unicast', globallyReachable: false },
];

/** Written independently of the code under test: expand "::", then 8 groups of 16 bits. */
function toNumber(address: string): bigint {
  const [head = '', tail] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups =
    tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.reduce((n, group) => n * 65536n + BigInt(`0x${group}`), 0n);
}

const toAddress = (value: bigint): string =>
  Array.from({ length: 8 }, (_, i) => ((value >> BigInt(16 * (7 - i))) & 0xffffn).toString(16)).join(':');

/** First, middle and last address of a block. */
function samples({ prefix, bits }: Block): string[] {
  const size = 1n << BigInt(128 - bits);
  const first = toNumber(prefix);
  return [...new Set([first, first + size / 2n, first + size - 1n])].map(toAddress);
}

/** A smaller block the registry lists as globally reachable inside a larger one that is not (2001::/23). */
const carvedOut = (address: string, block: Block): boolean =>
  REGISTRY.some(
    (other) => other !== block && other.globallyReachable && other.bits > block.bits && inBlock(address, other),
  );

function inBlock(address: string, block: Block): boolean {
  const shift = BigInt(128 - block.bits);
  return toNumber(address) >> shift === toNumber(block.prefix) >> shift;
}

for (const block of REGISTRY) {
  test(`${block.prefix}/${block.bits} (${block.name}) is ${block.globallyReachable ? 'allowed' : 'refused'}`, (t) => {
    for (const address of samples(block)) {
      if (carvedOut(address, block)) continue;
      const reason = forbiddenAddressReason(address);
      if (block.globallyReachable) t.is(reason, null, address);
      else t.not(reason, null, `${address} should be refused`);
    }
  });
}

test('blocks that embed an IPv4 address are judged by that address', (t) => {
  const cases: [address: string, refused: boolean][] = [
    ['::ffff:127.0.0.1', true], // IPv4-mapped
    ['::ffff:8.8.8.8', false],
    ['64:ff9b::10.0.0.1', true], // well-known NAT64 prefix (globally reachable when the IPv4 address is)
    ['64:ff9b::8.8.8.8', false],
    ['2002:a00:1::', true], // 6to4 of 10.0.0.1
    ['2002:808:808::', false],
    ['::ffff:0:8.8.8.8', true], // SIIT: translated by the operator's own gateway, whatever it embeds
  ];
  for (const [address, refused] of cases) t.is(forbiddenAddressReason(address) !== null, refused, address);
});

test('ordinary public IPv6 addresses are allowed', (t) => {
  for (const address of ['2606:4700:4700::1111', '2a00:1450:4001:82b::200e', '2620:4f:8001::1'])
    t.is(forbiddenAddressReason(address), null, address);
});
