/**
 * The house style of the Dutch, as a visitor or the firm reads it: every page the build
 * prerendered (frontend/dist), the page the function answers a refused form post with, and
 * what the firm reads: its notification e-mail, the digest of held messages, the page of held
 * messages and the access document an operator sends a visitor, as text. One
 * form of address ("u hebt", never "u heeft" or "heeft u") and one verb for sending a message
 * (verzenden; not versturen, not sturen), except where the spec gives the words (the form's
 * title). Reads the rendered pages, not the content modules: a sentence anywhere counts.
 */
import { expect, test } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import { contactForm } from '@site/frontend/content/site';
import { HELD_PAGE_TEXT } from '@site/core/content/held-page';
import { digestBody, digestOf } from '@site/lambda/digest';
import { heldPage, heldRefusedPage } from '@site/lambda/held-page';
import { buildNotification } from '@site/lambda/mail';
import { refusedPostPage } from '@site/lambda/refused-post-page';
import { accessDocument } from '@site/ops/messages/access-document';
import { messageMaker } from '@site/testing/stored-messages';
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
/** What the firm reads, and what it sends a visitor who asks: a held message, and one e-mailed, as stored. */
const stored = messageMaker({ idPrefix: '01KHOUSESTYLE', from: new Date('2026-11-23T08:00:00Z') });
const held = [
  stored({ status: 'held', heldFor: 'budget', score: 0, signals: [], company: 'De Vries B.V.', phone: '055 123 4567' }),
  stored({ status: 'held', heldFor: 'suspect', score: 5, signals: ['noStamp', 'linkInMessage', 'fastFill'] }),
];
const route = { from: 'website@firma.example', to: ['info@firma.example'], configurationSet: 'site', senderName: 'Website' };
const plain = (text: string) => text.replace(/\s+/g, ' ');
const firmReads: [string, string][] = [
  ['the firm’s notification', plain(buildNotification(stored({ status: 'emailed' }), route).Message!.Body!.Text!.Data!)],
  [
    'the digest of held messages',
    plain(
      digestBody(digestOf(held, false)!, CONTACT_FIELDS, {
        url: 'https://www.firma.example/api/held?link=x',
        until: '2026-11-30T08:00:00Z',
      }),
    ),
  ],
  [
    'the page of held messages',
    readable(
      heldPage({
        token: 't',
        messages: held,
        more: true,
        search: '',
        page: 1,
        notice: HELD_PAGE_TEXT.released(held[0]!.id),
        fields: CONTACT_FIELDS,
      }),
    ),
  ],
  ['the page of held messages, its link expired', readable(heldRefusedPage(HELD_PAGE_TEXT.linkInvalid))],
  [
    'the access document',
    plain(
      accessDocument({
        address: held[0]!.email,
        found: { messages: held, visitorCounters: [], idempotencyRecords: [], stampRecords: [] },
        at: new Date('2026-11-28T09:15:00Z'),
        facts: { retentionDays: 365, region: 'eu-west-1', visitorWindowMinutes: 10, spamRetentionDays: 14 },
        jsonFile: 'inzage.json',
      }),
    ),
  ],
];
pages.push(...firmReads);

/** The spec's own words stay as given. */
const SPEC_WORDS = [contactForm.title];
const withoutSpecWords = (text: string) => SPEC_WORDS.reduce((rest, words) => rest.replaceAll(words, ''), text);

const find = (pattern: RegExp) =>
  pages.flatMap(([page, text]) => [...withoutSpecWords(text).matchAll(pattern)].map((match) => `${page}: “${match[0]}”`));

test.describe('the Dutch of every rendered page', () => {
  test('reads every prerendered page, the function’s pages, and the e-mails and documents the firm reads', () => {
    expect(pages.length).toBeGreaterThan(5);
    expect(pages.map(([page]) => page)).toContain('privacy.html');
    expect(pages.map(([page]) => page)).toEqual(expect.arrayContaining(firmReads.map(([page]) => page)));
  });

  test('says “aangehouden” of a held message, never “vastgehouden”', () => {
    expect(find(/\baangehouden\b/gi).length, 'the chosen word is used').toBeGreaterThan(0);
    expect(find(/\bvastgehouden\b/gi)).toEqual([]);
  });

  test('starts no sentence with a digit (a numbered entry’s “1. ” is a list’s mark, not a sentence)', () => {
    expect(find(/(?:^|[.!?]\s)(?!\d+\.\s)\d[^.!?]*/g)).toEqual([]);
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
