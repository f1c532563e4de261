/**
 * Which visitor an address is, at the edges of IPv6 notation: only an address
 * whose first five groups are all zero and whose sixth is ffff is IPv4-mapped (anything else
 * with ffff there is an IPv6 subscriber, held to its /64 and /48 however it picks its last
 * 32 bits), and an IPv4-mapped address is read with every octet as long as it is. Addresses
 * come from the documentation ranges, written as clients and CloudFront write them: upper
 * case, leading zeros, `::` in different places, an IPv4 tail.
 */
import { describe, expect, it } from 'vitest';
import { TEST_VISITOR_LIMIT } from '@site/testing/test-values';
import { countedNetworks, visitorAddress } from '../src/spam/visitor-limit';
import { answer, contactEvent, VALID_BODY } from '@site/testing/api-events';
import { useContactStack } from './support/contact-stack';

describe('an address with ffff in its sixth group', () => {
  it('is an IPv6 visitor, keyed by its /64, when any of the five groups before it is not zero', () => {
    const cases: [string, string][] = [
      ['2001:db8:0:1:0:ffff:c633:6407:46532', '2001:db8:0:1::/64'],
      ['2001:DB8::FFFF:C633:6407:443', '2001:db8:0:0::/64'],
      ['2001:0db8:0000:0001:0000:ffff:198.51.100.7:443', '2001:db8:0:1::/64'],
      // Only the fifth group is not zero: the narrowest miss.
      ['0:0:0:0:1:ffff:cb00:7101:443', '0:0:0:0::/64'],
      ['::1:ffff:203.0.113.1:443', '0:0:0:0::/64'],
    ];
    for (const [viewer, visitor] of cases) expect(visitorAddress(viewer), viewer).toBe(visitor);
  });

  it('counts against its /64 and /48, not as an IPv4 address', () => {
    expect(countedNetworks('2001:db8:3333:4444:0:ffff:c633:6407:443')).toEqual([
      { network: '2001:db8:3333:4444::/64', kind: 'visitor' },
      { network: '2001:db8:3333::/48', kind: 'ipv6Network' },
    ]);
  });

  it('is IPv4-mapped only when all five groups before it are zero, however it is written', () => {
    for (const viewer of [
      '::ffff:c633:6407:443',
      '0:0:0:0:0:ffff:c633:6407:443',
      '0000:0000:0000:0000:0000:FFFF:C633:6407:443',
      '::FFFF:198.51.100.7:443',
    ]) {
      expect(visitorAddress(viewer), viewer).toBe('198.51.100.7');
    }
  });
});

describe('an IPv4-mapped address', () => {
  it('is read with every octet, one to three digits long in any position', () => {
    const cases: [string, string][] = [
      ['::ffff:198.51.100.7:5000', '198.51.100.7'],
      ['::ffff:203.0.113.254:5000', '203.0.113.254'],
      ['::ffff:192.0.2.201:5000', '192.0.2.201'],
      ['[::ffff:198.51.100.123]:443', '198.51.100.123'],
      ['0:0:0:0:0:FFFF:203.0.113.45:1', '203.0.113.45'],
    ];
    for (const [viewer, visitor] of cases) {
      expect(visitorAddress(viewer), viewer).toBe(visitor);
      expect(countedNetworks(viewer), viewer).toEqual([{ network: visitor, kind: 'visitor' }]);
    }
  });
});

describe('through the handler', () => {
  const stack = useContactStack();
  const post = async (viewer: string, n: number) =>
    answer(await stack.handler(contactEvent({ viewer, body: { ...VALID_BODY, message: `Bericht ${n} van deze bezoeker.` } })));

  it('refuses a subscriber that changes the last 32 bits of its address inside one /64 once the limit is reached', async () => {
    // One subscriber's /64, each address spelt differently, each with ffff in the sixth group.
    const addresses = [
      '2001:db8:5555:6666:0:ffff:c633:6401',
      '2001:DB8:5555:6666:0:FFFF:C633:6402',
      '2001:0db8:5555:6666:0000:ffff:198.51.100.3',
      '2001:db8:5555:6666::ffff:c633:6404',
      '2001:db8:5555:6666:0:ffff:cb00:7105',
      '2001:db8:5555:6666:0:ffff:203.0.113.106',
    ];
    const limit = TEST_VISITOR_LIMIT.messages;
    const statuses = [];
    for (let i = 0; i <= limit; i += 1) statuses.push((await post(addresses[i % addresses.length]!, i)).statusCode);
    expect(statuses).toEqual([...Array<number>(limit).fill(200), 429]);
    expect(stack.logs.entries().at(-1)).toMatchObject({ outcome: 'visitor_limited', status: 429 });
  });

  it('keeps IPv4-mapped visitors with multi-digit octets apart: one at its limit does not limit another', async () => {
    const limit = TEST_VISITOR_LIMIT.messages;
    for (let i = 0; i < limit; i += 1) expect((await post('::ffff:198.51.100.17', i)).statusCode).toBe(200);
    expect((await post('::ffff:198.51.100.17', limit)).statusCode).toBe(429);
    for (const other of ['::ffff:198.51.100.18', '::FFFF:203.0.113.254', '0:0:0:0:0:ffff:192.0.2.123']) {
      expect((await post(other, 0)).statusCode, other).toBe(200);
    }
  });
});
