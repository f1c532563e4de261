/**
 * The house style of the Dutch, as a visitor reads it: every page the build prerendered
 * (frontend/dist) and the page the function answers a refused form post with, as text. One
 * form of address ("u hebt", never "u heeft" or "heeft u") and one verb for sending a message
 * (verzenden; not versturen, not sturen), except where the spec gives the words (the form's
 * title). Reads the rendered pages, not the content modules: a sentence anywhere counts.
 */
import { expect, test } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import { contactForm } from '@site/frontend/content/site';
import { refusedPostPage } from '@site/lambda/refused-post-page';
import { readHtml } from '@site/testing/html-page';

const dist = join(import.meta.dirname, '..', '..', 'frontend', 'dist');

function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? htmlFiles(join(dir, entry.name)) : entry.name.endsWith('.html') ? [join(dir, entry.name)] : [],
  );
}

/** What a reader reads on a page: its text (the title's too), and the texts of attributes a screen reader says. */
function readable(html: string): string {
  const page = readHtml(html);
  const said = page.elements.flatMap((element) =>
    ['aria-label', 'title', 'alt', 'placeholder'].map((name) => element.attributes[name] ?? ''),
  );
  return [page.readable(), ...said].join('\n').replace(/\s+/g, ' ');
}

const pages: [string, string][] = [
  ...htmlFiles(dist).map((file): [string, string] => [relative(dist, file), readable(readFileSync(file, 'utf8'))]),
  [
    'the function’s refused-post page',
    readable(
      refusedPostPage({ fields: CONTACT_FIELDS, values: {}, problems: { email: 'Vul een geldig e-mailadres in.' }, reason: undefined }),
    ),
  ],
];
/** The spec's own words stay as given. */
const SPEC_WORDS = [contactForm.title];
const withoutSpecWords = (text: string) => SPEC_WORDS.reduce((rest, words) => rest.replaceAll(words, ''), text);

const find = (pattern: RegExp) =>
  pages.flatMap(([page, text]) => [...withoutSpecWords(text).matchAll(pattern)].map((match) => `${page}: “${match[0]}”`));

test.describe('the Dutch of every rendered page', () => {
  test('reads every prerendered page and the function’s page', () => {
    expect(pages.length).toBeGreaterThan(5);
    expect(pages.map(([page]) => page)).toContain('privacy.html');
  });

  test('addresses the visitor one way: “u hebt”, never “u heeft”', () => {
    expect(find(/\bu hebt\b|\bhebt u\b/gi).length, 'the chosen form is used').toBeGreaterThan(0);
    expect(find(/\bu heeft\b|\bheeft u\b/gi)).toEqual([]);
  });

  test('says “verzenden” for sending a message, never “versturen” or “sturen”', () => {
    expect(find(/\bverz[eo]nd\w*/gi).length, 'the chosen verb is used').toBeGreaterThan(0);
    expect(find(/\b(?:ver)?(?:stuur\w*|sturen)\b|\bgestuurd\b/gi)).toEqual([]);
  });
});
