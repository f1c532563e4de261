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

  it(`keeps a pair longer than ${MAX_JOINED} characters breakable, so it never sticks out of a narrow line`, () => {
    const long = 'Advies over bedrijfsvoeringsvraagstukken beantwoorden';
    expect(joinLastWords(long)).toBe(long);
    const fits = 'Wij helpen met x'.replace('x', 'a'.repeat(MAX_JOINED - 'met '.length));
    expect(joinLastWords(fits)).toContain('\u00a0');
  });
});
