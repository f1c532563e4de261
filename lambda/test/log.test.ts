/**
 * The functions' log lines cannot be forged: whatever a value holds, one entry is one line
 * of JSON that means the same, with nothing a terminal or a log viewer acts on.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorLocation, withoutDetails, writeLog } from '../src/shared/log';
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

describe('errorLocation', () => {
  /** An error thrown two calls deep in this file, carrying visitor data in its message, as a bug's TypeError can. */
  function thrownHere(): unknown {
    const inner = () => {
      throw new TypeError("Cannot read properties of undefined (reading 'jan@voorbeeld.nl')");
    };
    const outer = () => inner();
    try {
      outer();
    } catch (error) {
      return error;
    }
  }

  it('names where an error was thrown, innermost first, as file:line:column', () => {
    const where = errorLocation(thrownHere())!;
    const frames = where.split(' < ');
    expect(frames).toHaveLength(3);
    for (const frame of frames) expect(frame).toMatch(/^log\.test\.ts:\d+:\d+$/);
    const [innermost, caller] = frames.map((frame) => Number(frame.split(':')[1]));
    expect(innermost).toBeLessThan(caller!);
  });

  it('carries positions only: never the message, whatever it holds', () => {
    const where = errorLocation(thrownHere())!;
    expect(where).not.toContain('@');
    expect(where).not.toContain('reading');
  });

  it('has nothing to say about what is not an error with a stack', () => {
    expect(errorLocation('TypeError')).toBeUndefined();
    expect(errorLocation(null)).toBeUndefined();
    expect(errorLocation({ stack: 'TypeError: no frames at all' })).toBeUndefined();
  });
});

describe('withoutDetails', () => {
  it('passes on the failure by name and code, never the message an AWS error may quote', () => {
    const refused = Object.assign(new Error('Email address is not verified: jan@voorbeeld.nl'), { name: 'MessageRejected' });
    const thrown = withoutDetails(refused);
    expect(thrown.message).toContain('MessageRejected');
    expect(thrown.message).not.toContain('@');
    expect(String(thrown.stack)).not.toContain('jan@voorbeeld.nl');
  });
});
