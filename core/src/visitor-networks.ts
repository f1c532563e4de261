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

/**
 * The networks the mail budget shares out among (lambda/src/spam/mail-budget.ts): one
 * network, and the wider block it is part of, for IPv4 and for IPv6.
 */
export const BUDGET_NETWORK_PREFIXES = {
  ipv4: { network: 24, wider: 16 },
  ipv6: { network: 48, wider: 32 },
} as const;
