/**
 * Text from visitors and requests as an operator meets it: in a log line (the edge's request
 * log, forLogLine) and in a terminal (`npm run messages -- show`, withInvisibleShown). Both
 * are characters.ts's, though the Lambda functions themselves call neither.
 */
import { describe, expect, it } from 'vitest';
import { forLogLine, withInvisibleShown } from '../src/shared/characters';

describe('a request path in a log line', () => {
  it('keeps an ordinary path as it is', () => {
    expect(forLogLine('/api/send-contact-email?x=1')).toBe('/api/send-contact-email?x=1');
  });

  it('escapes what could start a line, move the cursor or reorder the text, and the % itself, as a URL escapes them', () => {
    const forged = '/x%0a\n{"level":"error"}\u001b[2J\u0085\u2028\u202Egnp.exe\u00AD';
    expect(forLogLine(forged)).toBe('/x%250a%0A{"level":"error"}%1B[2J%C2%85%E2%80%A8%E2%80%AEgnp.exe%C2%AD');
    // Every character it escapes, it escapes wherever it stands, not only the first.
    expect(forLogLine('\n\n')).toBe('%0A%0A');
  });
});

describe('stored text in a terminal', () => {
  it('names each invisible character by its code point, in capitals, four digits at least', () => {
    expect(withInvisibleShown('Jan\u202Egnp.exe\u00AD de\u200BVries')).toBe('Jan<U+202E>gnp.exe<U+00AD> de<U+200B>Vries');
  });

  it('leaves visible text as it is', () => {
    expect(withInvisibleShown('Café "De Kroon" & Zonen')).toBe('Café "De Kroon" & Zonen');
  });
});
