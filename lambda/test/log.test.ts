/**
 * The functions' log lines cannot be forged: whatever a value holds, one entry is one line
 * of JSON that means the same, with nothing a terminal or a log viewer acts on.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeLog } from '../src/log';
import { captureLogs, type CapturedLogs } from '@site/testing/logs';

/** A value an attacker would like in a log: a forged second line, a terminal escape, reordered text. */
const FORGED =
  '/x\n{"level":"info","msg":"forged"}\r\u001b[2J\u001b]0;title\u0007\u0085\u009b31m\u2028\u2029\u202egnp.exe\u202c\u200b\u2066\u{E0041}\u007f';

let logs: CapturedLogs;
beforeEach(() => {
  logs = captureLogs();
});
afterEach(() => logs.restore());

describe('writeLog', () => {
  it('writes one line however many line breaks, separators and controls a value holds', () => {
    writeLog({ level: 'info', msg: 'test', path: FORGED });
    const lines = logs.raw().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toBe('');
    expect(lines[0]).toMatch(/^\{"level":"info","msg":"test","path":".*"\}$/);
  });

  it('leaves no control, separator, direction or invisible character in the line, only \\u escapes', () => {
    writeLog({ level: 'warn', msg: 'test', path: FORGED });
    const line = logs.raw();
    // eslint-disable-next-line no-control-regex -- finds the control characters the line must not hold
    expect(line.slice(0, -1)).not.toMatch(/[\u0000-\u001F\u007F-\u009F\u2028\u2029]|\p{Default_Ignorable_Code_Point}/u);
    expect(line).toContain('\\u001b[2J');
    expect(line).toContain('\\u202egnp.exe');
    expect(line).toContain('\\udb40\\udc41');
  });

  it('means the same when read back: the value comes out exactly as it went in', () => {
    writeLog({ level: 'error', msg: 'test', path: FORGED, count: 3, flag: true });
    expect(logs.entries()).toEqual([{ level: 'error', msg: 'test', path: FORGED, count: 3, flag: true }]);
  });

  it('writes ordinary text, accents and emoji as they are', () => {
    writeLog({ level: 'info', msg: 'test', note: 'Zoë – café 👩‍💻' });
    expect(logs.raw()).toBe('{"level":"info","msg":"test","note":"Zoë – café 👩\\u200d💻"}\n');
  });
});
