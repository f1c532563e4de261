/**
 * The per-visitor limit: the address CloudFront reports turned into a visitor, its salted
 * hash, the window, and the counter in DynamoDB (the stand-in): the limit, a new window,
 * the TTL, two visitors apart, concurrent requests, and no trace of the address or of the
 * counters in the message indexes.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGE_TABLE } from '@site/core/table';
import { countVisitorMessage } from '../src/store';
import {
  secondsLeft,
  visitorAddress,
  visitorCounterId,
  visitorHash,
  visitorHashKey,
  visitorLimitFrom,
  windowAt,
  type VisitorLimit,
} from '../src/visitor-limit';
import { startLocalAws, type LocalAws } from '@site/local/local-aws';

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

describe('visitorHash', () => {
  const key = visitorHashKey(randomBytes(32).toString('base64url'));

  it('is a fixed-length hex string that does not contain the address', () => {
    const hash = visitorHash(key, '198.51.100.10');
    expect(hash).toMatch(/^[0-9a-f]{32}$/);
    expect(hash).not.toContain('198');
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
  it('reads the limit and the window; 0 messages turns the limit off', () => {
    expect(visitorLimitFrom({ VISITOR_LIMIT: '5', VISITOR_WINDOW_SECONDS: '600' })).toEqual({ messages: 5, windowSeconds: 600 });
    expect(visitorLimitFrom({ VISITOR_LIMIT: '0', VISITOR_WINDOW_SECONDS: '600' }).messages).toBe(0);
  });

  it('names the variable that is missing or wrong', () => {
    expect(() => visitorLimitFrom({ VISITOR_WINDOW_SECONDS: '600' })).toThrow('Environment variable VISITOR_LIMIT is not set.');
    expect(() => visitorLimitFrom({ VISITOR_LIMIT: '5' })).toThrow('VISITOR_WINDOW_SECONDS is not set');
    expect(() => visitorLimitFrom({ VISITOR_LIMIT: 'vijf', VISITOR_WINDOW_SECONDS: '600' })).toThrow(
      'VISITOR_LIMIT must be a whole number of at least 0, not "vijf"',
    );
    expect(() => visitorLimitFrom({ VISITOR_LIMIT: '5', VISITOR_WINDOW_SECONDS: '0' })).toThrow(
      'VISITOR_WINDOW_SECONDS must be a whole number of at least 1',
    );
  });
});

describe('counting in DynamoDB', () => {
  const LIMIT: VisitorLimit = { messages: 5, windowSeconds: 600 };
  const key = visitorHashKey(randomBytes(32).toString('base64url'));
  let aws: LocalAws;

  beforeAll(async () => {
    aws = await startLocalAws();
  });
  afterAll(() => aws?.close());

  /** One message from `address` at `now`, as the handler counts it. */
  const count = (address: string, now: Date, limit = LIMIT) => {
    const window = windowAt(now, limit.windowSeconds);
    const id = visitorCounterId(visitorHash(key, visitorAddress(address)!), window);
    return countVisitorMessage(aws.table, { id, limit: limit.messages, expiresAt: window.endsAt });
  };
  const counters = async () => (await aws.items()).filter((item) => String(item.id).startsWith('visitor#'));

  it('counts up to the limit, then refuses without writing', async () => {
    const now = new Date('2030-01-01T10:00:00Z');
    const outcomes = [];
    for (let i = 0; i < 7; i += 1) outcomes.push(await count('198.51.100.10:40000', now));
    expect(outcomes).toEqual(['counted', 'counted', 'counted', 'counted', 'counted', 'over', 'over']);
    const window = windowAt(now, LIMIT.windowSeconds);
    const counter = (await counters()).find((item) => item.id === visitorCounterId(visitorHash(key, '198.51.100.10'), window));
    expect(counter).toMatchObject({ messageCount: 5 });
  });

  it('counts afresh in the next window', async () => {
    const last = new Date('2030-01-01T10:19:59Z');
    for (let i = 0; i < 5; i += 1) await count('198.51.100.20:40000', last);
    expect(await count('198.51.100.20:40001', last)).toBe('over');
    expect(await count('198.51.100.20:40002', new Date('2030-01-01T10:20:00Z'))).toBe('counted');
  });

  it('expires each counter when its window ends (TTL), and keeps only the hash, the window and the count', async () => {
    const now = new Date('2030-01-01T10:34:00Z');
    await count('198.51.100.30:40000', now);
    const window = windowAt(now, LIMIT.windowSeconds);
    const id = visitorCounterId(visitorHash(key, '198.51.100.30'), window);
    const counter = (await counters()).find((item) => item.id === id)!;
    expect(counter[MESSAGE_TABLE.timeToLiveAttribute]).toBe(window.endsAt);
    expect(counter[MESSAGE_TABLE.timeToLiveAttribute]).toBe(Date.parse('2030-01-01T10:40:00Z') / 1000);
    expect(Object.keys(counter).sort()).toEqual(['expiresAt', 'id', 'messageCount']);
    expect(counter).toMatchObject({ messageCount: 1 });
    expect(counter.id).toMatch(/^visitor#[0-9a-f]{32}#\d+$/);
  });

  it('keeps two visitors apart: one at its limit does not limit another', async () => {
    const now = new Date('2030-01-01T11:00:00Z');
    for (let i = 0; i < 5; i += 1) await count('192.0.2.1:1000', now);
    expect(await count('192.0.2.1:1001', now)).toBe('over');
    expect(await count('192.0.2.2:1000', now)).toBe('counted');
    expect(await count('2001:db8:1:2::1:443', now)).toBe('counted');
  });

  it('counts an IPv6 subscriber once for every address of its /64', async () => {
    const now = new Date('2030-01-01T12:00:00Z');
    for (let i = 1; i <= 5; i += 1) expect(await count(`2001:db8:aaaa:1::${i}:443`, now)).toBe('counted');
    expect(await count('2001:db8:aaaa:1:ffff:ffff:ffff:ffff:443', now)).toBe('over');
    expect(await count('2001:db8:aaaa:2::1:443', now)).toBe('counted');
  });

  it('never lets concurrent requests of one visitor count past the limit together', async () => {
    const now = new Date('2030-01-01T13:00:00Z');
    const outcomes = await Promise.all(Array.from({ length: 12 }, (_, i) => count(`198.51.100.77:${2000 + i}`, now)));
    expect(outcomes.filter((outcome) => outcome === 'counted')).toHaveLength(5);
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
