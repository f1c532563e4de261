import { describe, expect, it } from 'vitest';
import { firstNameOf } from './first-name';

describe('the name a visitor is thanked by', () => {
  it.each([
    ['Anna de Vries', 'Anna'],
    ['  Anna   de Vries ', 'Anna'],
    ['Anna', 'Anna'],
    ['Jan-Willem van Dijk', 'Jan-Willem'],
    ['Zoë Öztürk', 'Zoë'],
    ["O'Neill Jansen", "O'Neill"],
    ['anna', 'anna'],
    ['<b>Anna</b> Jansen', '<b>Anna</b>'],
  ])('takes the first word of “%s” as typed: %s', (name, expected) => {
    expect(firstNameOf(name)).toBe(expected);
  });

  it.each([
    ['a title with a full stop', 'dr. J. de Vries'],
    ['a title without one', 'Prof Jansen'],
    ['a form of address', 'mevrouw Jansen'],
    ['an initial', 'J. de Vries'],
    ['initials run together', 'A.B. Jansen'],
    ['an initial without its full stop', 'J de Vries'],
    ['a surname with its particle first', 'Van den Berg'],
    ['a surname particle in lower case', 'de Vries'],
    ['a surname first, with a comma', 'Vries, Anna de'],
    ['nothing but spaces', '   '],
  ])('has no given name to take from %s (“%s”)', (_, name) => {
    expect(firstNameOf(name)).toBeUndefined();
  });
});
