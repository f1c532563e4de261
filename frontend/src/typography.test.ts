import { describe, expect, it } from 'vitest';
import { joinLastWords, MAX_JOINED } from './typography';

describe('joinLastWords', () => {
  it('joins the last two words with a no-break space and leaves the rest as written', () => {
    expect(joinLastWords('Een lange zin met een kort slot')).toBe('Een lange zin met een kort\u00a0slot');
    expect(joinLastWords('Twee woorden')).toBe('Twee\u00a0woorden');
    expect(joinLastWords('Vragen? Bel ons.')).toBe('Vragen? Bel\u00a0ons.');
  });

  it('leaves a text of one word, or no words, alone', () => {
    expect(joinLastWords('Kwaliteit')).toBe('Kwaliteit');
    expect(joinLastWords('')).toBe('');
  });

  it('joins once, however often it is applied, and drops spaces after the last word', () => {
    expect(joinLastWords(joinLastWords('Bel ons gerust op'))).toBe('Bel ons gerust\u00a0op');
    expect(joinLastWords('Bel ons gerust op ')).toBe('Bel ons gerust\u00a0op');
  });

  it.each(Object.entries(MAX_JOINED))(
    'keeps a pair longer than a %s line allows (%i characters) breakable, so it never sticks out',
    (kind, max) => {
      const pair = (length: number) => `Wij helpen met ${'a'.repeat(length - 'met '.length)}`;
      expect(joinLastWords(pair(max), kind as keyof typeof MAX_JOINED)).toContain('\u00a0');
      expect(joinLastWords(pair(max + 1), kind as keyof typeof MAX_JOINED)).toBe(pair(max + 1));
    },
  );

  it('keeps more together in a text than in a heading, and in a heading than in a title, whose type is larger', () => {
    expect(joinLastWords('Financieel en bedrijfseconomisch advies')).toBe('Financieel en bedrijfseconomisch\u00a0advies');
    expect(joinLastWords('Financieel en bedrijfseconomisch advies', 'heading')).toBe('Financieel en bedrijfseconomisch advies');
    expect(joinLastWords('Advies over financiële sturing', 'heading')).toBe('Advies over financiële\u00a0sturing');
    expect(joinLastWords('Advies over financiële sturing', 'title')).toBe('Advies over financiële sturing');
  });
});
