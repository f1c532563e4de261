/**
 * How the contact function tells visitors apart for its limit (lambda/src/spam/visitor-limit.ts):
 * an IPv4 address as it is; an IPv6 address by the network of one connection and, with a
 * higher cap, by the network one subscriber is given. Only a keyed hash of each is stored.
 * The privacy statement names these prefixes, so both read them from here.
 */
export const IPV6_COUNTED_PREFIXES = {
  /** The network one connection picks its addresses from. */
  visitor: 64,
  /** The most one subscriber is given. */
  ipv6Network: 48,
} as const;
