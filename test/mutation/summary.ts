/**
 * What a mutation run says per module, kept in results.json and shown in results.md: the
 * counts, the score against the module's floor, and every mutant the tests did not kill,
 * described so that the description survives edits elsewhere in the file (it names the
 * line's text, not its number). A survivor recorded as equivalent (equivalent-mutants.json,
 * keyed by that description) is listed with its reason and left out of the score: no test
 * can kill a mutant that behaves as the code does. Pure: run.ts reads and writes the files.
 */
import type { schema } from '@stryker-mutator/api/core';
import { markdownTable } from '@site/ops/columns';
import { FLOORS, type MutatedModule } from './floors.ts';

/** A mutant no test killed: it survived, or no test ran its code. */
export interface Survivor {
  line: number;
  /** Stable across runs: the mutator, the line's text, what was replaced and by what. */
  description: string;
  status: 'Survived' | 'NoCoverage';
}

/** A mutant the runner could not judge (it crashed, or the mutant does not compile). */
export interface RunnerError {
  line: number;
  description: string;
  /** The first line of Stryker's reason. */
  reason: string;
}

export interface ModuleResult {
  /** The commit the run measured (with "(with uncommitted changes)" when the tree was not clean). */
  commit: string;
  date: string;
  killed: number;
  timeout: number;
  survived: number;
  noCoverage: number;
  /**
   * Mutants whose code threw while the test files were loading (an invalid regular
   * expression built from an emptied string, say): every test of those files failed, as
   * the function would fail its Lambda init. Stryker reports them as runtime errors; they are
   * detected, not unjudged.
   */
  failedToLoad: number;
  /** Stryker's own score: killed and timed out of all it could judge. */
  strykerScore: number;
  survivors: Survivor[];
  runnerErrors: RunnerError[];
}

export type Results = Partial<Record<MutatedModule, ModuleResult>>;

/** Per module, the description of each equivalent mutant and the one-line reason it is equivalent. */
export type EquivalentMutants = Partial<Record<MutatedModule, Record<string, string>>>;

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
const shortened = (text: string, max = 80) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The source text a location spans (lines and columns count from 1). */
function spanned(lines: readonly string[], location: schema.Location): string {
  const { start, end } = location;
  if (start.line === end.line) return lines[start.line - 1]!.slice(start.column - 1, end.column - 1);
  return [
    lines[start.line - 1]!.slice(start.column - 1),
    ...lines.slice(start.line, end.line - 1),
    lines[end.line - 1]!.slice(0, end.column - 1),
  ].join('\n');
}

/**
 * Each mutant with its stable description, in the order of the source; a second mutant with
 * the same description gets " (2)", and so on.
 */
function describeMutants(file: schema.FileResult): [schema.MutantResult, string][] {
  const lines = file.source.split('\n');
  const seen = new Map<string, number>();
  const ordered = [...file.mutants].sort(
    (a, b) => a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column,
  );
  return ordered.map((mutant) => {
    const line = oneLine(lines[mutant.location.start.line - 1] ?? '');
    const original = shortened(oneLine(spanned(lines, mutant.location)));
    const replacement = shortened(oneLine(mutant.replacement ?? ''));
    const base = `${mutant.mutatorName} in \`${line}\`: \`${original}\` → \`${replacement}\``;
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    return [mutant, count === 1 ? base : `${base} (${count})`];
  });
}

const score = (detected: number, judged: number) => (judged === 0 ? 100 : (100 * detected) / judged);

/** How Stryker's vitest runner words an error thrown while a test file loads, before any test of it ran. */
const LOAD_ERROR = 'An error occurred outside of a test run:';
const failsToLoad = (mutant: schema.MutantResult) => mutant.status === 'RuntimeError' && (mutant.statusReason ?? '').startsWith(LOAD_ERROR);

/** One module's result from its file in Stryker's JSON report. */
export function moduleResult(file: schema.FileResult, run: { commit: string; date: string }): ModuleResult {
  const described = describeMutants(file);
  const count = (status: schema.MutantStatus) => file.mutants.filter((mutant) => mutant.status === status).length;
  const killed = count('Killed');
  const timeout = count('Timeout');
  const survived = count('Survived');
  const noCoverage = count('NoCoverage');
  const failedToLoad = file.mutants.filter(failsToLoad).length;
  return {
    ...run,
    killed,
    timeout,
    survived,
    noCoverage,
    failedToLoad,
    strykerScore: score(killed + timeout, killed + timeout + survived + noCoverage),
    survivors: described.flatMap(([mutant, description]) =>
      mutant.status === 'Survived' || mutant.status === 'NoCoverage'
        ? [{ line: mutant.location.start.line, description, status: mutant.status }]
        : [],
    ),
    runnerErrors: described.flatMap(([mutant, description]) =>
      (mutant.status === 'RuntimeError' && !failsToLoad(mutant)) || mutant.status === 'CompileError'
        ? [{ line: mutant.location.start.line, description, reason: (mutant.statusReason ?? mutant.status).split('\n')[0]! }]
        : [],
    ),
  };
}

/** The modules of the report this project sets floors for, each with its result. */
export function resultsOf(report: schema.MutationTestResult, run: { commit: string; date: string }): Results {
  return Object.fromEntries(
    Object.entries(report.files).flatMap(([name, file]) => (Object.hasOwn(FLOORS, name) ? [[name, moduleResult(file, run)]] : [])),
  );
}

export interface Judgement {
  module: MutatedModule;
  result: ModuleResult;
  floor: number;
  /** Killed, timed out and failed to load, of all judged but the recorded equivalent mutants. */
  score: number;
  equivalent: number;
  passed: boolean;
}

/** Each measured module against its floor. A runner error fails it too: that mutant was never judged. */
export function judge(results: Results, equivalents: EquivalentMutants): Judgement[] {
  return (Object.keys(FLOORS) as MutatedModule[]).flatMap((module) => {
    const result = results[module];
    if (!result) return [];
    const reasons = equivalents[module] ?? {};
    const equivalent = result.survivors.filter((survivor) => Object.hasOwn(reasons, survivor.description)).length;
    const detected = result.killed + result.timeout + (result.failedToLoad ?? 0);
    const value = score(detected, detected + result.survived + result.noCoverage - equivalent);
    return [
      {
        module,
        result,
        floor: FLOORS[module],
        score: value,
        equivalent,
        passed: value >= FLOORS[module] && result.runnerErrors.length === 0,
      },
    ];
  });
}

const percent = (value: number) => `${value.toFixed(1)} %`;

/** results.md: the table, then each module's survivors and runner errors. */
export function renderResults(judgements: readonly Judgement[], equivalents: EquivalentMutants): string {
  const failing = judgements.filter((judgement) => !judgement.passed).length;
  const unmeasured = (Object.keys(FLOORS) as MutatedModule[]).filter(
    (module) => !judgements.some((judgement) => judgement.module === module),
  );
  const out = [
    '# Mutation testing results',
    '',
    '`npm run test:mutation`: Stryker with its vitest runner over the lambda tests, mutating the modules that decide a refusal or a count. ' +
      'Floors are the design\'s (docs/design.md, "Mutation testing"). The score counts killed, timed-out and failed-to-load mutants (code that throws while the tests load it) out of all others ' +
      "but those recorded as equivalent (equivalent-mutants.json, each with its reason); Stryker's own score counts those too. " +
      'Each module names the commit its last run measured. ' +
      (failing
        ? `**${failing} module${failing === 1 ? '' : 's'} below floor or with runner errors.**`
        : 'Every measured module is at or above its floor.'),
    '',
    markdownTable(
      [
        'module',
        'measured at',
        'floor',
        'score',
        "Stryker's score",
        'killed',
        'timed out',
        'failed to load',
        'survived',
        'no coverage',
        'equivalent',
        'runner errors',
        'result',
      ],
      judgements.map(({ module, result, floor, score: value, equivalent, passed }) => [
        module,
        `${result.commit}, ${result.date.slice(0, 10)}`,
        percent(floor),
        percent(value),
        percent(result.strykerScore),
        String(result.killed),
        String(result.timeout),
        String(result.failedToLoad ?? 0),
        String(result.survived),
        String(result.noCoverage),
        String(equivalent),
        String(result.runnerErrors.length),
        passed ? 'pass' : '**FAIL**',
      ]),
    ),
  ];
  if (unmeasured.length) out.push('', `Not measured yet: ${unmeasured.join(', ')}.`);
  for (const { module, result } of judgements) {
    if (result.survivors.length === 0 && result.runnerErrors.length === 0) continue;
    out.push('', `## ${module}`, '');
    const reasons = equivalents[module] ?? {};
    for (const survivor of result.survivors) {
      const reason = reasons[survivor.description];
      const verdict = reason ? `equivalent: ${reason}` : survivor.status === 'NoCoverage' ? '**no test runs it**' : '**survived**';
      out.push(`- ${module}:${survivor.line} ${survivor.description} — ${verdict}`);
    }
    for (const error of result.runnerErrors) out.push(`- ${module}:${error.line} ${error.description} — **runner error**: ${error.reason}`);
  }
  return `${out.join('\n')}\n`;
}
