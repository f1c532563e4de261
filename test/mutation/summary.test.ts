/**
 * The summary of a mutation run decides whether `npm run test:mutation` passes: a module
 * passes at or above its floor, with recorded equivalent mutants left out of the score and
 * listed with their reasons; a mutant the runner could not judge fails it; and a survivor's
 * description, which keys its reason, does not change when other lines move.
 */
import type { schema } from '@stryker-mutator/api/core';
import { describe, expect, it } from 'vitest';
import { FLOORS } from './floors.ts';
import { judge, moduleResult, renderResults, resultsOf } from './summary.ts';

const MODULE = 'lambda/src/contact/origin-verify.ts';
const RUN = { commit: 'abc1234', date: '2026-11-25T12:00:00.000Z' };

const SOURCE = ['export function f(a: number) {', '  if (a < 32) return 1;', '  return a < 32 ? 2 : 3;', '}'].join('\n');

type Status = schema.MutantStatus;

let ids = 0;
/** A mutant of `a < 32` on `line` (1-based) of SOURCE. */
function mutant(line: number, status: Status, replacement = 'a <= 32', statusReason?: string): schema.MutantResult {
  const column = SOURCE.split('\n')[line - 1]!.indexOf('a < 32') + 1;
  ids += 1;
  return {
    id: String(ids),
    mutatorName: 'EqualityOperator',
    replacement,
    status,
    statusReason,
    location: { start: { line, column }, end: { line, column: column + 'a < 32'.length } },
  };
}

const file = (mutants: schema.MutantResult[], source = SOURCE): schema.FileResult => ({ language: 'typescript', source, mutants });

/** Nine killed or timed out, and `others`. */
const withNineDetected = (others: schema.MutantResult[]) =>
  file([...Array.from({ length: 8 }, () => mutant(2, 'Killed', 'true')), mutant(2, 'Timeout', 'false'), ...others]);

describe('a module', () => {
  it('passes at its floor and fails below it', () => {
    expect(FLOORS[MODULE]).toBe(90);
    const atFloor = { [MODULE]: moduleResult(withNineDetected([mutant(3, 'Survived')]), RUN) };
    expect(judge(atFloor, {})).toEqual([expect.objectContaining({ module: MODULE, score: 90, passed: true })]);
    const below = { [MODULE]: moduleResult(withNineDetected([mutant(3, 'Survived'), mutant(2, 'NoCoverage')]), RUN) };
    expect(judge(below, {})).toEqual([expect.objectContaining({ score: 900 / 11, passed: false })]);
  });

  it('leaves a recorded equivalent mutant out of its score, and lists it with its reason', () => {
    const result = moduleResult(withNineDetected([mutant(3, 'Survived'), mutant(2, 'Survived')]), RUN);
    const [line2, line3] = result.survivors;
    const equivalents = { [MODULE]: { [line3!.description]: 'both branches give 2 or 3 alike at 32' } };
    const [judgement] = judge({ [MODULE]: result }, equivalents);
    expect(judgement).toMatchObject({ score: 90, equivalent: 1, passed: true });
    expect(result.strykerScore).toBeCloseTo(900 / 11);
    const markdown = renderResults([judgement!], equivalents);
    expect(markdown).toContain(`${MODULE}:3 ${line3!.description} — equivalent: both branches give 2 or 3 alike at 32`);
    expect(markdown).toContain(`${MODULE}:2 ${line2!.description} — **survived**`);
  });

  it('fails with a mutant the runner could not judge, and names the runner’s reason', () => {
    const reason = 'Test runner crashed. Tried twice to restart it without any luck.';
    const result = moduleResult(withNineDetected([mutant(2, 'RuntimeError', 'false', `${reason}\nTypeError: …`)]), RUN);
    const [judgement] = judge({ [MODULE]: result }, {});
    expect(judgement).toMatchObject({ score: 100, passed: false });
    expect(renderResults([judgement!], {})).toContain(`**runner error**: ${reason}`);
  });

  it('counts a mutant whose code throws while the tests load it as detected, not as a runner error', () => {
    const reason =
      'An error occurred outside of a test run: lambda/test/schema.test.ts: Invalid regular expression: /[/: Unterminated character class';
    const result = moduleResult(withNineDetected([mutant(2, 'RuntimeError', '""', reason), mutant(3, 'Survived')]), RUN);
    expect(result).toMatchObject({ failedToLoad: 1, runnerErrors: [] });
    const [judgement] = judge({ [MODULE]: result }, {});
    expect(judgement).toMatchObject({ score: 1000 / 11, passed: true });
  });
});

describe('a survivor’s description', () => {
  it('names the line’s text, what was replaced and by what, and stays the same when other lines move', () => {
    const [survivor] = moduleResult(file([mutant(3, 'Survived')]), RUN).survivors;
    expect(survivor).toEqual({
      line: 3,
      status: 'Survived',
      description: 'EqualityOperator in `return a < 32 ? 2 : 3;`: `a < 32` → `a <= 32`',
    });
    const moved: schema.MutantResult = {
      ...mutant(3, 'Survived'),
      location: { start: { line: 5, column: 10 }, end: { line: 5, column: 16 } },
    };
    const [after] = moduleResult(file([moved], `// a new comment\n// and another\n${SOURCE}`), RUN).survivors;
    expect(after).toEqual({ ...survivor, line: 5 });
  });

  it('is numbered when one line has two mutants alike', () => {
    const source = 'export const g = (a: number) => (a < 32 ? 1 : 2) + (a < 32 ? 3 : 4);';
    const at = (column: number): schema.MutantResult => ({
      ...mutant(1, 'Survived'),
      location: { start: { line: 1, column }, end: { line: 1, column: column + 6 } },
    });
    const [first, second] = [source.indexOf('a < 32'), source.lastIndexOf('a < 32')].map((index) => at(index + 1));
    const descriptions = moduleResult(file([second!, first!], source), RUN).survivors.map((survivor) => survivor.description);
    expect(descriptions[0]).not.toMatch(/\(2\)$/);
    expect(descriptions[1]).toBe(`${descriptions[0]} (2)`);
  });
});

describe('the report', () => {
  it('keeps only the modules with a floor, and names those not measured yet', () => {
    const report: schema.MutationTestResult = {
      schemaVersion: '2',
      thresholds: { high: 80, low: 60 },
      files: { [MODULE]: file([mutant(2, 'Killed')]), 'lambda/src/shared/log.ts': file([mutant(2, 'Survived')]) },
    };
    const results = resultsOf(report, RUN);
    expect(Object.keys(results)).toEqual([MODULE]);
    const markdown = renderResults(judge(results, {}), {});
    expect(markdown).toContain('Every measured module is at or above its floor.');
    expect(markdown).toContain('Not measured yet: lambda/src/contact/schema.ts');
    expect(markdown).not.toContain('lambda/src/shared/log.ts');
  });
});
