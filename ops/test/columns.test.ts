import { describe, expect, it } from 'vitest';
import { markdownTable, alignedColumns } from '../columns';

describe('alignedColumns', () => {
  it('lines columns up by characters, two spaces apart, without trailing spaces', () => {
    expect(
      alignedColumns([
        ['metric', 'ratio', 'result'],
        ['LCP', '1.05× baseline', ''],
        ['Zoë 😀', '—', 'pass'],
      ]),
    ).toBe(['metric  ratio           result', 'LCP     1.05× baseline', 'Zoë 😀   —               pass'].join('\n'));
  });
});

describe('markdownTable', () => {
  it('pads every column to at least three characters and escapes what would break a row', () => {
    expect(markdownTable(['', 'detail'], [['a', 'x | y\n  z']])).toBe(
      ['|     | detail   |', '| --- | -------- |', '| a   | x \\| y z |'].join('\n'),
    );
  });
});
