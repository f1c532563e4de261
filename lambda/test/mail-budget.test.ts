/**
 * The mail budget's rules one by one, as an operator reads them in decision 0042: which
 * budgets a message may spend, each network's share, the reserve for networks not e-mailed
 * today, and the counters they are kept in (on the DynamoDB stand-in).
 */
import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '@site/core/node/deploy-config';
import { budgetCounter, budgetKindsOf, networkShare, withoutReserve, type MailBudgets } from '../src/spam/mail-budget';
import { takeMailBudget } from '../src/spam/spam-store';
import type { MessageTable } from '../src/store/store';
import { useLocalAws } from './support/contact-stack';

const DEFAULT_BUDGETS: MailBudgets = { ordinary: DEFAULTS.mailBudget, site: DEFAULTS.siteMailBudget };

describe('the budgets a message may spend', () => {
  it('a clean message from the site’s form: its own budget, then the ordinary one', () => {
    expect(budgetKindsOf([], true)).toEqual(['site', 'ordinary']);
  });

  it('any other: the ordinary budget only', () => {
    expect(budgetKindsOf(['linkInMessage'], true)).toEqual(['ordinary']);
    expect(budgetKindsOf([], false)).toEqual(['ordinary']);
    expect(budgetKindsOf(['noStamp'], false)).toEqual(['ordinary']);
  });
});

describe('a network’s share', () => {
  it('is a tenth of the hour’s budgets and a twentieth of the day’s; a wider network’s twice that', () => {
    // The deploy's defaults: 40 an hour and 160 a day of both budgets together.
    expect(networkShare(DEFAULT_BUDGETS, 'network')).toEqual({ perHour: 4, perDay: 8 });
    expect(networkShare(DEFAULT_BUDGETS, 'wider')).toEqual({ perHour: 8, perDay: 16 });
    const larger = { ordinary: { perHour: 25, perDay: 100 }, site: { perHour: 36, perDay: 99 } };
    expect(networkShare(larger, 'network')).toEqual({ perHour: 6, perDay: 9 });
  });

  it('is at least one e-mail an hour and a day, however small the budgets', () => {
    const tiny = { ordinary: { perHour: 1, perDay: 1 }, site: { perHour: 1, perDay: 1 } };
    expect(networkShare(tiny, 'network')).toEqual({ perHour: 1, perDay: 1 });
    expect(networkShare(tiny, 'wider')).toEqual({ perHour: 2, perDay: 2 });
  });
});

describe('the reserve', () => {
  it('keeps the last third of the day (rounded down) from networks e-mailed today; the hour is not reserved', () => {
    expect(withoutReserve({ perHour: 30, perDay: 120 })).toEqual({ perHour: 30, perDay: 80 });
    expect(withoutReserve({ perHour: 10, perDay: 40 })).toEqual({ perHour: 10, perDay: 27 });
    expect(withoutReserve({ perHour: 2, perDay: 2 })).toEqual({ perHour: 2, perDay: 2 });
  });
});

describe('the counters', () => {
  it('are one item per budget or network and UTC day, with each hour an attribute, kept a day after the day', () => {
    const day = Math.floor(Date.parse('2026-11-30T00:00:00Z') / 86_400_000);
    const late = budgetCounter({ kind: 'site' }, { perHour: 3, perDay: 9 }, new Date('2026-11-30T23:59:59Z'));
    expect(late).toEqual({ id: `budget#site#day#${day}`, hour: 'h23', perHour: 3, perDay: 9, expiresAt: (day + 2) * 86_400 });
    const early = budgetCounter({ network: 'ab12' }, { perHour: 1, perDay: 2 }, new Date('2026-11-30T00:00:00Z'));
    expect(early).toEqual({ id: `budget#network#ab12#day#${day}`, hour: 'h00', perHour: 1, perDay: 2, expiresAt: (day + 2) * 86_400 });
    expect(budgetCounter({ kind: 'ordinary' }, { perHour: 1, perDay: 1 }, new Date('2026-11-30T09:30:00Z')).hour).toBe('h09');
  });
});

describe('taking an e-mail', () => {
  const stack = useLocalAws();
  const table = (): MessageTable => ({ name: stack.aws.config.tableName, client: stack.aws.clients.documents });
  const counts = async (prefix: string) =>
    Object.fromEntries(
      (await stack.aws.items()).filter((item) => String(item.id).startsWith(prefix)).map((item) => [String(item.id), item.sent]),
    );

  it('keeps the last third of the day for networks not e-mailed today', async () => {
    // A network's share here is 10 a day; the ordinary budget's 9, of which 3 are the reserve.
    const budgets = { ordinary: { perHour: 100, perDay: 9 }, site: { perHour: 100, perDay: 200 } };
    const now = new Date('2026-12-01T10:00:00Z');
    const take = async (network: string) =>
      (await takeMailBudget(table(), { kinds: ['ordinary'], budgets, networks: [network] }, now))?.kind;
    const a = [];
    for (let i = 0; i < 8; i += 1) a.push(await take('A'));
    expect(a).toEqual([...Array<string>(6).fill('ordinary'), undefined, undefined]);
    // The first e-mail of networks not seen today may spend the reserve, until the day's budget is spent.
    expect([await take('B'), await take('C'), await take('D'), await take('E')]).toEqual(['ordinary', 'ordinary', 'ordinary', undefined]);
    // B's second e-mail is no first: the reserve is not open to it.
    expect(await take('B')).toBeUndefined();
  });

  it('falls back from the site budget to the ordinary one before a clean message is held', async () => {
    const budgets = { ordinary: { perHour: 1, perDay: 100 }, site: { perHour: 1, perDay: 100 } };
    const now = new Date('2026-12-01T12:00:00Z');
    const take = async (network: string) =>
      (await takeMailBudget(table(), { kinds: ['site', 'ordinary'], budgets, networks: [network] }, now))?.kind;
    expect([await take('F'), await take('G'), await take('H')]).toEqual(['site', 'ordinary', undefined]);
  });

  it('gives back what it counted when an e-mail is not taken, so a held message costs its networks nothing', async () => {
    const budgets = { ordinary: { perHour: 1, perDay: 20 }, site: { perHour: 1, perDay: 20 } };
    const now = new Date('2026-12-02T10:00:00Z');
    const take = (networks: string[]) => takeMailBudget(table(), { kinds: ['ordinary'], budgets, networks }, now);
    expect(await take(['N1', 'W'])).toMatchObject({ kind: 'ordinary' });
    // The hour's ordinary budget is spent: N2's and W's counts go back.
    expect(await take(['N2', 'W'])).toBeUndefined();
    const day = Math.floor(now.getTime() / 86_400_000);
    expect(await counts('budget#network#')).toMatchObject({
      [`budget#network#N1#day#${day}`]: 1,
      [`budget#network#N2#day#${day}`]: 0,
      [`budget#network#W#day#${day}`]: 1,
    });
  });

  it('refuses past a wider network’s share, giving the narrower network’s count back', async () => {
    const budgets = { ordinary: { perHour: 100, perDay: 1000 }, site: { perHour: 100, perDay: 1000 } };
    const now = new Date('2026-12-03T10:00:00Z');
    const wider = networkShare(budgets, 'wider');
    const taken = [];
    for (let i = 0; i < wider.perHour + 1; i += 1) {
      taken.push(await takeMailBudget(table(), { kinds: ['ordinary'], budgets, networks: [`X${i}`, 'WIDE'] }, now));
    }
    expect(taken.filter(Boolean)).toHaveLength(wider.perHour);
    expect(taken.at(-1)).toBeUndefined();
    const day = Math.floor(now.getTime() / 86_400_000);
    expect((await counts(`budget#network#X${wider.perHour}#`))[`budget#network#X${wider.perHour}#day#${day}`]).toBe(0);
    expect((await counts('budget#ordinary#'))[`budget#ordinary#day#${day}`]).toBe(wider.perHour);
  });
});
