/**
 * Collects every check and every headline number, and prints them as markdown tables:
 * one summary (load held, faults survived, inputs tried, messages lost), every check with
 * PASS/FAIL, and the timings. A failed check is listed again at the end by name, so CI
 * output says what broke without scrolling.
 */
import { markdownTable } from '@site/ops/columns';

export interface Check {
  area: string;
  name: string;
  ok: boolean;
  detail: string;
}

export interface SummaryRow {
  what: string;
  result: string;
  detail: string;
}

export class Report {
  readonly checks: Check[] = [];
  readonly rows: SummaryRow[] = [];
  readonly timings: [label: string, ms: number][] = [];

  /** Records a check; returns `ok` so callers can branch on it. */
  check(area: string, name: string, ok: boolean, detail = ''): boolean {
    this.checks.push({ area, name, ok, detail });
    console.log(`  ${ok ? 'PASS' : 'FAIL'}  ${name}${detail ? ` (${detail})` : ''}`);
    return ok;
  }

  row(what: string, result: string, detail: string): void {
    this.rows.push({ what, result, detail });
  }

  timing(label: string, ms: number): void {
    this.timings.push([label, ms]);
  }

  failed(): Check[] {
    return this.checks.filter((check) => !check.ok);
  }

  areaOk(area: string): boolean {
    const checks = this.checks.filter((check) => check.area === area);
    return checks.length > 0 && checks.every((check) => check.ok);
  }

  render(): string {
    const lines: string[] = [];
    lines.push('## Robustness summary', '');
    lines.push(
      markdownTable(
        ['', 'result', 'detail'],
        this.rows.map((row) => [row.what, row.result, row.detail]),
      ),
    );
    lines.push('', '## Checks', '');
    lines.push(
      markdownTable(
        ['area', 'check', '', 'detail'],
        this.checks.map((check) => [check.area, check.name, check.ok ? 'PASS' : '**FAIL**', check.detail]),
      ),
    );
    lines.push('', '## Timings', '');
    lines.push(
      markdownTable(
        ['phase', 'seconds'],
        this.timings.map(([label, ms]) => [label, (ms / 1000).toFixed(1)]),
      ),
    );
    const failed = this.failed();
    lines.push('');
    if (failed.length === 0) lines.push(`All ${this.checks.length} checks passed.`);
    else {
      lines.push(`${failed.length} of ${this.checks.length} checks FAILED:`);
      for (const check of failed) lines.push(`  - [${check.area}] ${check.name}${check.detail ? `: ${check.detail}` : ''}`);
    }
    return lines.join('\n');
  }
}

export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
export const ms = (value: number) => `${Math.round(value)} ms`;
export const count = (value: number) => value.toLocaleString('en-US');
