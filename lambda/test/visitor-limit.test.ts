/**
 * The per-visitor limit: the address CloudFront reports turned into a visitor (and for IPv6
 * its /48), its salted hash, the window, and the counter in DynamoDB (the stand-in): the
 * limit, one message counted once, a new window, the TTL, two visitors apart, concurrent
 * requests, places given back by messages that were not stored (released, or settled when a
 * late write beat the release), and no trace of the address or of the counters in the
 * message indexes.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGE_TABLE } from '@site/core/table';
import { IPV6_COUNTED_PREFIXES } from '@site/core/visitor-networks';
import { ulid } from 'ulid';
import { countMessage, releaseMessage, SETTLE_MS, type CountResult } from '../src/spam/visitor-counter';
import {
  countedNetworks,
  limitOf,
  secondsLeft,
  visitorAddress,
  visitorCounterId,
  visitorHash,
  visitorHashKey,
  windowAt,
  type VisitorLimit,
} from '../src/spam/visitor-limit';
import { visitorLimitFrom } from '../src/config';
import { startFunctionAws, type FunctionAws } from './support/contact-stack';

describe('visitorAddress', () => {
  it('takes the IPv4 address of ip:port', () => {
    expect(visitorAddress('198.51.100.10:46532')).toBe('198.51.100.10');
    expect(visitorAddress(' 203.0.113.7:1 ')).toBe('203.0.113.7');
  });

  it('keys an IPv6 address by its /64, one subscriber network', () => {
    expect(visitorAddress('2001:db8:3333:4444:5555:6666:7777:8888:46532')).toBe('2001:db8:3333:4444::/64');
    expect(visitorAddress('2001:db8:3333:4444::1:443')).toBe('2001:db8:3333:4444::/64');
    expect(visitorAddress('[2001:DB8:3333:4444:ffff::9]:443')).toBe('2001:db8:3333:4444::/64');
    expect(visitorAddress('2001:db8::1:443')).toBe('2001:db8:0:0::/64');
    expect(visitorAddress('::1:8080')).toBe('0:0:0:0::/64');
  });

  it('reads an IPv4-mapped IPv6 address as the IPv4 address', () => {
    expect(visitorAddress('::ffff:192.0.2.33:5000')).toBe('192.0.2.33');
    expect(visitorAddress('::ffff:c000:221:5000')).toBe('192.0.2.33');
  });

  it('is undefined for anything that is not ip:port', () => {
    for (const value of [
      undefined,
      '',
      '198.51.100.10',
      '198.51.100.10:',
      '198.51.100.10:port',
      'example.nl:443',
      '999.1.1.1:80',
      'a:b:c',
    ]) {
      expect(visitorAddress(value), String(value)).toBeUndefined();
    }
  });
});

describe('countedNetworks', () => {
  it('counts an IPv4 address (an IPv4-mapped one too) as one visitor, and nothing more', () => {
    expect(countedNetworks('198.51.100.10:46532')).toEqual([{ network: '198.51.100.10', kind: 'visitor' }]);
    expect(countedNetworks('::ffff:192.0.2.33:5000')).toEqual([{ network: '192.0.2.33', kind: 'visitor' }]);
  });

  it('counts an IPv6 address against its /64 and its /48, narrowest first', () => {
    expect(countedNetworks('2001:db8:3333:4444:5555:6666:7777:8888:46532')).toEqual([
      { network: '2001:db8:3333:4444::/64', kind: 'visitor' },
      { network: '2001:db8:3333::/48', kind: 'ipv6Network' },
    ]);
    // Every /64 of one /48 (a /56 or /48 subscriber sweeping its prefixes) shares the /48.
    const networksOf = (address: string) => countedNetworks(address)!.map(({ network }) => network);
    expect(networksOf('[2001:db8:3333:ff00::1]:443')[1]).toBe('2001:db8:3333::/48');
    expect(networksOf('[2001:db8:3333:ffff::1]:443')[0]).not.toBe(networksOf('[2001:db8:3333:ff00::1]:443')[0]);
    expect(networksOf('[2001:db8:3334::1]:443')[1]).toBe('2001:db8:3334::/48');
  });

  it('counts by the prefixes the privacy statement names (IPV6_COUNTED_PREFIXES)', () => {
    const lengths = countedNetworks('2001:db8:3333:4444:5555:6666:7777:8888:443')!.map(({ network, kind }) => [
      kind,
      network.split('/')[1],
    ]);
    expect(Object.fromEntries(lengths)).toEqual({
      visitor: String(IPV6_COUNTED_PREFIXES.visitor),
      ipv6Network: String(IPV6_COUNTED_PREFIXES.ipv6Network),
    });
  });

  it('holds each to its own cap', () => {
    const limit: VisitorLimit = { messages: 5, ipv6Network: 20, windowSeconds: 600 };
    expect(limitOf(limit, 'visitor')).toBe(5);
    expect(limitOf(limit, 'ipv6Network')).toBe(20);
  });

  it('is undefined for anything that is not ip:port', () => {
    expect(countedNetworks(undefined)).toBeUndefined();
    expect(countedNetworks('example.nl:443')).toBeUndefined();
  });
});

describe('visitorHash', () => {
  const key = visitorHashKey(randomBytes(32).toString('base64url'));

  it('is a fixed-length hex string that does not contain the address', () => {
    const hash = visitorHash(key, '198.51.100.10');
    expect(hash).toMatch(/^[0-9a-f]{32}$/);
    // Neither the address's text nor its four bytes (a hex digest could hold "198" by chance: it did, 1 run in ~150).
    expect(hash).not.toContain('198.51.100.10');
    expect(hash).not.toContain(Buffer.from([198, 51, 100, 10]).toString('hex'));
    expect(visitorHash(key, '198.51.100.10')).toBe(hash);
  });

  it('differs per address and per key (salt), so a table dump cannot be matched against addresses without the secret', () => {
    expect(visitorHash(key, '198.51.100.11')).not.toBe(visitorHash(key, '198.51.100.10'));
    const otherKey = visitorHashKey(randomBytes(32).toString('base64url'));
    expect(visitorHash(otherKey, '198.51.100.10')).not.toBe(visitorHash(key, '198.51.100.10'));
  });
});

describe('windows', () => {
  it('are fixed, aligned to the epoch, and end where the next begins', () => {
    const at = (iso: string) => windowAt(new Date(iso), 600);
    expect(at('2030-01-01T10:00:00Z')).toEqual(at('2030-01-01T10:09:59.999Z'));
    expect(at('2030-01-01T10:10:00Z').index).toBe(at('2030-01-01T10:09:59Z').index + 1);
    expect(at('2030-01-01T10:04:00Z').endsAt).toBe(Date.parse('2030-01-01T10:10:00Z') / 1000);
  });

  it('say how long until a refused visitor may send again', () => {
    const now = new Date('2030-01-01T10:04:00.250Z');
    expect(secondsLeft(windowAt(now, 600), now)).toBe(360);
    const last = new Date('2030-01-01T10:09:59.900Z');
    expect(secondsLeft(windowAt(last, 600), last)).toBe(1);
  });
});

describe('visitorLimitFrom', () => {
  const ENV = { VISITOR_LIMIT: '5', VISITOR_IPV6_NETWORK_LIMIT: '20', VISITOR_WINDOW_SECONDS: '600' };

  it('reads the limit, the /48 cap and the window; 0 messages turns the limit off', () => {
    expect(visitorLimitFrom(ENV)).toEqual({ messages: 5, ipv6Network: 20, windowSeconds: 600 });
    expect(visitorLimitFrom({ ...ENV, VISITOR_LIMIT: '0' }).messages).toBe(0);
  });

  it('names the variable that is missing or wrong', () => {
    expect(() => visitorLimitFrom({ ...ENV, VISITOR_LIMIT: undefined })).toThrow('Environment variable VISITOR_LIMIT is not set.');
    expect(() => visitorLimitFrom({ ...ENV, VISITOR_WINDOW_SECONDS: undefined })).toThrow('VISITOR_WINDOW_SECONDS is not set');
    expect(() => visitorLimitFrom({ ...ENV, VISITOR_IPV6_NETWORK_LIMIT: undefined })).toThrow('VISITOR_IPV6_NETWORK_LIMIT is not set');
    expect(() => visitorLimitFrom({ ...ENV, VISITOR_LIMIT: 'vijf' })).toThrow(
      'VISITOR_LIMIT must be a whole number of at least 0, not "vijf"',
    );
    expect(() => visitorLimitFrom({ ...ENV, VISITOR_WINDOW_SECONDS: '0' })).toThrow(
      'VISITOR_WINDOW_SECONDS must be a whole number of at least 1',
    );
  });
});

describe('counting in DynamoDB', () => {
  const LIMIT: VisitorLimit = { messages: 5, ipv6Network: 20, windowSeconds: 600 };
  const key = visitorHashKey(randomBytes(32).toString('base64url'));
  let aws: FunctionAws;

  beforeAll(async () => {
    aws = await startFunctionAws();
  });
  afterAll(() => aws?.close());

  const counterIdOf = (address: string, now: Date) => visitorCounterId(visitorHash(key, visitorAddress(address)!), windowAt(now, 600));
  /** One message from `address` at `now`, as the handler counts it against the visitor; a new message unless `messageId` is given. */
  const count = (address: string, now: Date, messageId = ulid(now.getTime())) => {
    const window = windowAt(now, LIMIT.windowSeconds);
    return countMessage(aws.table, { id: counterIdOf(address, now), messageId, limit: LIMIT.messages, expiresAt: window.endsAt, now });
  };
  const outcomeOf = async (counting: Promise<CountResult>) => (await counting).outcome;
  const counterOf = async (address: string, now: Date) => (await aws.items()).find((item) => item.id === counterIdOf(address, now));
  const counters = async () => (await aws.items()).filter((item) => String(item.id).startsWith('visitor#'));
  const entries = (counter: Record<string, unknown> | undefined) =>
    Object.keys(counter ?? {}).filter((name) => name.startsWith('message#'));

  it('counts up to the limit, then refuses without writing', async () => {
    const now = new Date('2030-01-01T10:00:00Z');
    const outcomes = [];
    for (let i = 0; i < 7; i += 1) outcomes.push(await outcomeOf(count('198.51.100.10:40000', now)));
    expect(outcomes).toEqual(['counted', 'counted', 'counted', 'counted', 'counted', 'over', 'over']);
    const counter = await counterOf('198.51.100.10:1', now);
    expect(counter).toMatchObject({ messageCount: 5 });
    expect(entries(counter)).toHaveLength(5);
  });

  it('counts one message once, however often it is tried (a retry with the same Idempotency-Key)', async () => {
    const now = new Date('2030-01-01T10:01:00Z');
    const messageId = ulid(now.getTime());
    const first = await count('198.51.100.11:1', now, messageId);
    const again = await count('198.51.100.11:2', new Date(now.getTime() + 1000), messageId);
    expect(first).toMatchObject({ outcome: 'counted', reservation: { added: true } });
    expect(again).toMatchObject({ outcome: 'counted', reservation: { added: false } });
    expect(await counterOf('198.51.100.11:1', now)).toMatchObject({ messageCount: 1 });
    // Even when the window is full of other messages, a retry of a counted one is not refused.
    for (let i = 0; i < 4; i += 1) await count('198.51.100.11:3', now);
    expect(await outcomeOf(count('198.51.100.11:4', now))).toBe('over');
    expect(await outcomeOf(count('198.51.100.11:5', now, messageId))).toBe('counted');
  });

  it('counts afresh in the next window', async () => {
    const last = new Date('2030-01-01T10:19:59Z');
    for (let i = 0; i < 5; i += 1) await count('198.51.100.20:40000', last);
    expect(await outcomeOf(count('198.51.100.20:40001', last))).toBe('over');
    expect(await outcomeOf(count('198.51.100.20:40002', new Date('2030-01-01T10:20:00Z')))).toBe('counted');
  });

  it('expires each counter when its window ends (TTL), and keeps only the hash, the window, the count and the message ids', async () => {
    const now = new Date('2030-01-01T10:34:00Z');
    const messageId = ulid(now.getTime());
    await count('198.51.100.30:40000', now, messageId);
    const window = windowAt(now, LIMIT.windowSeconds);
    const counter = (await counterOf('198.51.100.30:1', now))!;
    expect(counter[MESSAGE_TABLE.timeToLiveAttribute]).toBe(window.endsAt);
    expect(counter[MESSAGE_TABLE.timeToLiveAttribute]).toBe(Date.parse('2030-01-01T10:40:00Z') / 1000);
    expect(Object.keys(counter).sort()).toEqual(['expiresAt', 'id', `message#${messageId}`, 'messageCount']);
    expect(counter).toMatchObject({ messageCount: 1, [`message#${messageId}`]: now.getTime() });
    expect(counter.id).toMatch(/^visitor#[0-9a-f]{32}#\d+$/);
  });

  it('keeps two visitors apart: one at its limit does not limit another', async () => {
    const now = new Date('2030-01-01T11:00:00Z');
    for (let i = 0; i < 5; i += 1) await count('192.0.2.1:1000', now);
    expect(await outcomeOf(count('192.0.2.1:1001', now))).toBe('over');
    expect(await outcomeOf(count('192.0.2.2:1000', now))).toBe('counted');
    expect(await outcomeOf(count('2001:db8:1:2::1:443', now))).toBe('counted');
  });

  it('counts an IPv6 subscriber once for every address of its /64', async () => {
    const now = new Date('2030-01-01T12:00:00Z');
    for (let i = 1; i <= 5; i += 1) expect(await outcomeOf(count(`2001:db8:aaaa:1::${i}:443`, now))).toBe('counted');
    expect(await outcomeOf(count('2001:db8:aaaa:1:ffff:ffff:ffff:ffff:443', now))).toBe('over');
    expect(await outcomeOf(count('2001:db8:aaaa:2::1:443', now))).toBe('counted');
  });

  it('never lets concurrent requests of one visitor count past the limit together', async () => {
    const now = new Date('2030-01-01T13:00:00Z');
    const ids = Array.from({ length: 12 }, (_, i) => ulid(now.getTime() + i));
    const outcomes = await Promise.all(ids.map((id, i) => outcomeOf(count(`198.51.100.77:${2000 + i}`, now, id))));
    expect(outcomes.filter((outcome) => outcome === 'counted')).toHaveLength(5);
    expect(await counterOf('198.51.100.77:1', now)).toMatchObject({ messageCount: 5 });
  });

  describe('a message that was not stored', () => {
    /** A full window of never-stored messages from `address`, counted at `now`. */
    const fill = async (address: string, now: Date) => {
      const counted = [];
      for (let i = 0; i < LIMIT.messages; i += 1) counted.push(await count(address, now, ulid(now.getTime() + i)));
      return counted.map((result) => (result.outcome === 'counted' ? result.reservation : expect.fail('expected counted')));
    };

    it('gives its place back when its request releases it', async () => {
      const now = new Date('2030-01-01T14:00:00Z');
      const [first] = await fill('198.51.100.40:1', now);
      expect(await outcomeOf(count('198.51.100.40:2', now))).toBe('over');
      await releaseMessage(aws.table, first!);
      expect(await counterOf('198.51.100.40:1', now)).toMatchObject({ messageCount: 4 });
      expect(await outcomeOf(count('198.51.100.40:3', now))).toBe('counted');
      // Released twice, or after a retry counted it again, nothing more is given back.
      await releaseMessage(aws.table, first!);
      expect(await counterOf('198.51.100.40:1', now)).toMatchObject({ messageCount: 5 });
    });

    it('is never released by a request that found it counted already: that retry may store it', async () => {
      const now = new Date('2030-01-01T14:10:00Z');
      const messageId = ulid(now.getTime());
      const first = await count('198.51.100.41:1', now, messageId);
      const retry = await count('198.51.100.41:2', new Date(now.getTime() + 500), messageId);
      if (first.outcome !== 'counted' || retry.outcome !== 'counted') return expect.fail('expected counted');
      await releaseMessage(aws.table, first.reservation);
      await releaseMessage(aws.table, retry.reservation);
      expect(await counterOf('198.51.100.41:1', now)).toMatchObject({ messageCount: 1 });
    });

    it('costs nothing once settled, even when its count was applied after its release (a late write)', async () => {
      const now = new Date('2030-01-01T14:20:00Z');
      const reservations = await fill('198.51.100.42:1', now);
      // The first one's count lands after its release: the same write, applied again.
      await releaseMessage(aws.table, reservations[0]!);
      await count('198.51.100.42:1', now, reservations[0]!.messageId);
      // One of them was stored after all.
      await aws.put({ id: reservations[1]!.messageId, status: 'received' });

      const tooSoon = new Date(now.getTime() + SETTLE_MS - 1000);
      const refused = await count('198.51.100.42:2', tooSoon);
      expect(refused).toEqual({ outcome: 'over', retryAt: now.getTime() + SETTLE_MS });

      const settled = new Date(now.getTime() + SETTLE_MS);
      for (let i = 0; i < 4; i += 1)
        expect(await outcomeOf(count('198.51.100.42:3', settled, ulid(settled.getTime() + i)))).toBe('counted');
      expect(await outcomeOf(count('198.51.100.42:4', settled))).toBe('over');
      const counter = await counterOf('198.51.100.42:1', now);
      expect(counter).toMatchObject({ messageCount: 5, [`message#${reservations[1]!.messageId}`]: 0 });
      for (const gone of [0, 2, 3, 4]) expect(counter).not.toHaveProperty(`message#${reservations[gone]!.messageId}`);
    });

    it('is not taken away while a retry of it is counting it again', async () => {
      const now = new Date('2030-01-01T14:30:00Z');
      const reservations = await fill('198.51.100.43:1', now);
      const later = new Date(now.getTime() + SETTLE_MS);
      // A retry of the first message counts it again just before another message settles the counter.
      await count('198.51.100.43:2', later, reservations[0]!.messageId);
      expect(await outcomeOf(count('198.51.100.43:3', later))).toBe('counted');
      expect(await counterOf('198.51.100.43:1', now)).toMatchObject({ [`message#${reservations[0]!.messageId}`]: later.getTime() });
    });
  });

  it('stores no address in clear, and no counter carries the key attribute of any message index', async () => {
    const all = await counters();
    expect(all.length).toBeGreaterThan(0);
    const dump = JSON.stringify(all);
    for (const address of ['198.51.100', '192.0.2', '2001:db8']) expect(dump).not.toContain(address);
    for (const index of Object.values(MESSAGE_TABLE.indexes)) {
      for (const counter of all) expect(counter).not.toHaveProperty(index.partitionKey.name);
    }
  });
});
