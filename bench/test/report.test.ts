/** The verdicts of a run as the report gives them: what fails the run, and what a run of one part leaves out. */
import { describe, expect, it } from 'vitest';
import { buildRows, newResults, type BenchResults } from '../report';

const run = (parts: Partial<BenchResults>, errors: Record<string, string> = {}): BenchResults => ({ ...newResults(), ...parts, errors });
const verdicts = (rows: ReturnType<typeof buildRows>) => rows.map((row) => `${row.budget.split(' (')[0]}: ${row.verdict}`);

describe('a run of every part', () => {
  it('fails every budget whose part did not run or could not measure, saying why', () => {
    const rows = buildRows(run({ firstLoadJs: { bytes: 84_720 } }, { lambdaBundle: 'esbuild could not resolve @site/lambda' }));
    expect(rows[0]).toMatchObject({ measured: '84,720 B', margin: '+280 B', verdict: 'pass' });
    expect(rows.filter((row) => row.verdict === 'not measured').length).toBeGreaterThan(5);
    expect(rows.find((row) => row.budget === 'Lambda bundle')?.measured).toBe('not measured: esbuild could not resolve @site/lambda');
  });

  it('fails first-load JavaScript when the first view fetched a script that size-limit does not count', () => {
    const [row] = buildRows(run({ firstLoadJs: { bytes: 70_000, uncounted: ['/assets/chunk-abc.js'] } }), true);
    expect(row).toMatchObject({ verdict: 'FAIL', against: 'also fetched on the first view, uncounted: /assets/chunk-abc.js' });
  });

  it('fails the handler’s latency when calls failed, whatever the times, giving the first failure', () => {
    const level = (p99: number, errors = 0, firstError?: string) => ({
      concurrency: 50,
      requests: 1000,
      p50: 10,
      p99,
      throughput: 100,
      errors,
      firstError,
    });
    const handlerLatency = { handler: [level(30, 184, 'the handler answered 503')], bare: [level(20)] };
    const [row] = buildRows(run({ handlerLatency }), true);
    expect(row).toMatchObject({ verdict: 'FAIL', measured: '1.50×; 184 calls failed, first: the handler answered 503' });
  });

  it('fails the spam wave when a message of the wave was not stored, however few e-mails went out', () => {
    const wave = { messages: 1000, stored: 990, held: 990, emails: 1, sesSends: 1, dynamoWrites: 3960, writeUnits: 3960, perHour: 10 };
    expect(verdicts(buildRows(run({ spamWave: wave }), true))).toEqual([
      'E-mails per 1,000 spam messages: not measured',
      'DynamoDB write units per spam message: pass',
    ]);
  });

  it('judges the tap on the phone’s menu at the first paint and after hydration, each on its median', () => {
    const loads = (runs: number[]) => ({ runs, p50: runs.toSorted((a, b) => a - b)[Math.floor(runs.length / 2)]!, max: Math.max(...runs) });
    const tapToPaint = { loads: 3, atFirstPaint: loads([48, 240, 56]), afterHydration: loads([16, 232, 248]), tapAfterFirstPaintMs: 20 };
    const rows = buildRows(run({ tapToPaint }), true);
    expect(rows.map((row) => [row.measured, row.margin, row.verdict])).toEqual([
      ['56 ms', '+144 ms', 'pass'],
      ['232 ms', '−32 ms', 'FAIL'],
    ]);
    expect(rows[0]!.budget).toContain('slowest 240 ms');
  });
});

describe('near-copies among ordinary messages', () => {
  it('passes at 1 % of pairs and fails above it', () => {
    const nearCopies = (collisions: number) => ({ messages: 300, keys: 5, pairs: 224_250, collisions });
    expect(buildRows(run({ nearCopies: nearCopies(1042) }), true)).toEqual([
      expect.objectContaining({ measured: '0.46 %', limit: '≤ 1 % of pairs', verdict: 'pass' }),
    ]);
    expect(verdicts(buildRows(run({ nearCopies: nearCopies(2243) }), true))).toEqual(['Near-copies among ordinary Dutch messages: FAIL']);
  });
});

describe('a run of some parts (--only)', () => {
  it('gives the rows of the parts that ran, and of those that failed, and leaves the others out', () => {
    const coldStart = { samples: 40, bundle: 76, sdkFromNodeModules: 111, empty: 34, ratio: 76 / 111 };
    expect(verdicts(buildRows(run({ coldStart }, { stampSolves: 'the stamp worker failed' }), true))).toEqual([
      'Cold start, spawn to exit: pass',
      'Proof-of-work stamp: not measured',
    ]);
  });
});
