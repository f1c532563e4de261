/**
 * Fair use per visitor: at most `messages` contact messages per visitor address in each
 * fixed window of `windowSeconds`, so one client cannot use up the stage-wide throttle for
 * everyone. The address is CloudFront's `CloudFront-Viewer-Address`, trustworthy only on a
 * request that carried the origin header (see origin-verify.ts). An IPv6 visitor is its
 * /64, and counts against its /48 too, with the higher cap `ipv6Network`: a subscriber given
 * a /48 or /56 could otherwise be 256 to 65,536 visitors. The table never holds an address:
 * a counter is keyed by a salted hash (HMAC) of it and the window, and expires with the
 * window. Pure: the counting itself is in visitor-counter.ts.
 */
import { createHmac, hkdfSync } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';
import ipaddr from 'ipaddr.js';
import { BUDGET_NETWORK_PREFIXES, IPV6_COUNTED_PREFIXES } from '@site/core/visitor-networks';

export interface VisitorLimit {
  /** Per visitor (an IPv4 address, an IPv6 /64); 0: no limit. */
  messages: number;
  /** Per IPv6 /48, the most one subscriber is given. */
  ipv6Network: number;
  windowSeconds: number;
}

/** The IPv4 address, or the IPv6 address, in `ip:port` (`[ip]:port` too); undefined for anything else. */
function viewerIp(viewerAddress: string | undefined): string | ipaddr.IPv6 | undefined {
  if (viewerAddress === undefined) return undefined;
  const value = viewerAddress.trim();
  const colon = value.lastIndexOf(':');
  if (colon < 0 || !/^\d{1,5}$/.test(value.slice(colon + 1))) return undefined;
  const ip = value.slice(0, colon).replace(/^\[(.*)\]$/, '$1');
  // Node's checks decide what is an address: none of the older notations ipaddr.js also reads (`127.1`, `0x7f.0.0.1`).
  if (isIPv4(ip)) return ip;
  if (!isIPv6(ip)) return undefined;
  const address = ipaddr.IPv6.parse(ip);
  return address.isIPv4MappedAddress() ? address.toIPv4Address().toString() : address;
}

/**
 * `2001:db8:3333:4444::/64` for the first four groups (`bits` a multiple of 16). Written so, not
 * in ipaddr.js's shortest form, since counters and text counts are keyed by a hash of this text:
 * another spelling would count a visitor afresh.
 */
const prefix = (address: ipaddr.IPv6, bits: number) =>
  `${address.parts
    .slice(0, bits / 16)
    .map((group) => group.toString(16))
    .join(':')}::/${bits}`;

/**
 * The visitor an address stands for: an IPv4 address as it is (an IPv4-mapped IPv6 one
 * too), an IPv6 address by its /64, the network one subscriber is given and can pick any
 * address from. Undefined when the header is missing or not `ip:port`.
 */
export function visitorAddress(viewerAddress: string | undefined): string | undefined {
  const ip = viewerIp(viewerAddress);
  return typeof ip === 'string' || ip === undefined ? ip : prefix(ip, IPV6_COUNTED_PREFIXES.visitor);
}

/** `198.51.100.0/24` for the first `bits` of an IPv4 address (a multiple of 8), spelt so always, as `prefix` spells IPv6. */
const ipv4Prefix = (address: string, bits: number) => {
  const octets = address.split('.').slice(0, bits / 8);
  return `${[...octets, ...Array<string>(4 - octets.length).fill('0')].join('.')}/${bits}`;
};

/**
 * The networks a viewer's e-mails are shared out among (mail-budget.ts), narrowest first: an
 * IPv4 address's /24 and /16, an IPv6 address's /48 and /32. Undefined when the header is
 * missing or not `ip:port`.
 */
export function budgetNetworks(viewerAddress: string | undefined): [network: string, wider: string] | undefined {
  const ip = viewerIp(viewerAddress);
  if (ip === undefined) return undefined;
  const { ipv4, ipv6 } = BUDGET_NETWORK_PREFIXES;
  if (typeof ip === 'string') return [ipv4Prefix(ip, ipv4.network), ipv4Prefix(ip, ipv4.wider)];
  return [prefix(ip, ipv6.network), prefix(ip, ipv6.wider)];
}

/** Which limit a counted network is held to. */
export type NetworkKind = 'visitor' | 'ipv6Network';

/**
 * Every network a viewer's message counts against, narrowest first: the visitor (see
 * visitorAddress), and for IPv6 also its /48, so that one subscriber's many /64s add up
 * while a network shared by many people still gets several visitors' worth.
 */
export function countedNetworks(viewerAddress: string | undefined): { network: string; kind: NetworkKind }[] | undefined {
  const ip = viewerIp(viewerAddress);
  if (ip === undefined) return undefined;
  if (typeof ip === 'string') return [{ network: ip, kind: 'visitor' }];
  return [
    { network: prefix(ip, IPV6_COUNTED_PREFIXES.visitor), kind: 'visitor' },
    { network: prefix(ip, IPV6_COUNTED_PREFIXES.ipv6Network), kind: 'ipv6Network' },
  ];
}

/** The cap of a network of this kind. */
export function limitOf(limit: VisitorLimit, kind: NetworkKind): number {
  return kind === 'visitor' ? limit.messages : limit.ipv6Network;
}

/**
 * The key the address hashes are made with, derived from the origin secret so the hashes
 * need no secret of their own: without it, a hash cannot be turned back into an address by
 * trying all of them (there are only 2^32 IPv4 addresses).
 */
export function visitorHashKey(originSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', originSecret, '', 'visitor-address-hash', 32));
}

/** 128 bits of HMAC-SHA-256: collisions between visitors are as good as impossible. */
export function visitorHash(key: Buffer, address: string): string {
  return createHmac('sha256', key).update(address, 'utf8').digest('hex').slice(0, 32);
}

export interface VisitorWindow {
  /** Which window since the epoch: part of the counter's key, so each window counts afresh. */
  index: number;
  /** Epoch seconds at which the window ends: the counter's TTL. */
  endsAt: number;
}

export function windowAt(now: Date, windowSeconds: number): VisitorWindow {
  const index = Math.floor(now.getTime() / 1000 / windowSeconds);
  return { index, endsAt: (index + 1) * windowSeconds };
}

/** Whole seconds until the window ends (the Retry-After of a refused request), at least 1. */
export function secondsLeft(window: VisitorWindow, now: Date): number {
  return Math.max(1, Math.ceil(window.endsAt - now.getTime() / 1000));
}

/** Every counter's item id starts so. */
export const VISITOR_COUNTER_PREFIX = 'visitor#';

/** The counter's item id; like idempotency records it carries no `status` or e-mail, so no index holds it. */
export function visitorCounterId(hash: string, window: VisitorWindow): string {
  return `${VISITOR_COUNTER_PREFIX}${hash}#${window.index}`;
}
