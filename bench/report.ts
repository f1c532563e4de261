/**
 * Writes a run's report: bench/results.md (markdown.ts), bench/results.json with the
 * at-a-glance rows (budget-rows.ts) and the findings (findings.ts), and the same table for
 * the terminal.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { alignedColumns } from '@site/ops/columns';
import { findings } from './findings';
import { renderMarkdown } from './markdown';
import type { BenchResults, Row, Status } from './results';

/** The same table for the terminal, columns padded. */
export function renderText(rows: readonly Row[]): string {
  const label: Record<Status, string> = { pass: 'pass', fail: 'FAIL', info: '', error: 'ERROR' };
  return alignedColumns([
    ['metric', 'budget', 'measured', 'ratio', 'result'],
    ...rows.map((r) => [`${r.area}: ${r.metric}`, r.budget, r.measured, r.ratio, label[r.status]]),
  ]);
}

export function writeReports(dir: string, results: BenchResults, rows: readonly Row[]): void {
  writeFileSync(join(dir, 'results.md'), renderMarkdown(results, rows));
  writeFileSync(join(dir, 'results.json'), `${JSON.stringify({ rows, findings: findings(results, rows), ...results }, null, 2)}\n`);
}
