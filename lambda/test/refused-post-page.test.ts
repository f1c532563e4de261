/**
 * The answer to a refused form post, read by the HTML standard's parsing rules, as a browser reads it: the form again,
 * built from the field list, with what was typed in it as the text it is, each refused field
 * named at the field, why it was not sent, and a button that posts it to the API again. And
 * which refusals get it (formReply): only those the visitor can act on by sending again.
 */
import { describe, expect, it } from 'vitest';
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import { refusedPost, visitorLimitSentence } from '@site/core/content/refused-post';
import { API_PATH, FORM_ANSWER_STYLESHEET, FORM_CONTENT_TYPE, FORM_RESULT_PAGES, fieldNames } from '@site/core/contract';
import type { FieldList } from '@site/core/field-spec';
import { contactEvent, VALID_BODY } from '@site/testing/api-events';
import { readHtml, type HtmlPage } from '@site/testing/html-page';
import { errorResponse, type HttpResult } from '../src/contact/http';
import { formReply } from '../src/contact/form-reply';
import { refusedPostPage } from '../src/contact/refused-post-page';

const byClass = (page: HtmlPage, name: string) =>
  page.elements.filter((element) => (element.attributes.class ?? '').split(' ').includes(name));
const control = (page: HtmlPage, name: string) => page.elements.find((element) => element.attributes.name === name)!;

const HOSTILE = {
  name: 'Jan "de" <b>Vries</b>',
  email: 'jan@bedrijf.example',
  phone: '',
  company: "O'Brien & Zonen",
  message: '\nEerste regel begint met een witregel.\n</textarea><script>alert(1)</script>\n<img src=x onerror=alert(2)>',
};

describe('the page of a refused form post', () => {
  const html = refusedPostPage({ fields: CONTACT_FIELDS, values: HOSTILE, problems: { phone: 'Vul een geldig telefoonnummer in.' } });
  const page = readHtml(html);

  it('holds every field of the list, filled in with exactly what was typed, markup as text', () => {
    expect(Object.keys(page.formValues())).toEqual([...fieldNames(CONTACT_FIELDS), 'website']);
    expect(page.formValues()).toEqual({ ...HOSTILE, website: '' });
    expect([...page.all('script'), ...page.all('img')]).toEqual([]);
    expect(page.all('textarea')[0]!.text).toContain('</textarea><script>');
  });

  it('names the refused field at the field, tied to it for a screen reader, and lists it with a link to it', () => {
    const phone = control(page, 'phone').attributes;
    expect(phone['aria-invalid']).toBe('true');
    expect(page.byId(phone['aria-describedby']!)!.text).toBe('Vul een geldig telefoonnummer in.');
    expect(control(page, 'name').attributes['aria-invalid']).toBeUndefined();
    const links = page.all('a').filter((link) => link.attributes.href?.startsWith('#'));
    expect(links.map((link) => [link.attributes.href, link.text])).toEqual([[`#${phone.id}`, CONTACT_FIELDS.phone.label]]);
    expect(page.all('label').find((label) => label.attributes.for === phone.id)!.text).toBe(`${CONTACT_FIELDS.phone.label}`);
    expect(page.readable()).toContain(refusedPost.refused(1));
  });

  it('posts to the API again with a button, wears the site’s stylesheet, and carries no script or inline style', () => {
    expect(page.all('form').map((form) => form.attributes)).toMatchObject([{ method: 'post', action: API_PATH }]);
    expect(page.all('button').map((button) => [button.attributes.type, button.text])).toEqual([['submit', refusedPost.submit]]);
    expect(
      page
        .all('link')
        .filter((link) => link.attributes.rel === 'stylesheet')
        .map((link) => link.attributes.href),
    ).toEqual([FORM_ANSWER_STYLESHEET]);
    expect([...page.all('script'), ...page.all('style'), ...page.elements.filter((element) => 'style' in element.attributes)]).toEqual([]);
    expect(page.all('html')[0]!.attributes.lang).toBe('nl');
    expect(page.all('h1').map((h1) => h1.text)).toEqual([refusedPost.headline]);
  });

  it('says the reason when no field is refused', () => {
    const limited = readHtml(refusedPostPage({ fields: CONTACT_FIELDS, values: {}, problems: {}, reason: visitorLimitSentence(3) }));
    expect(byClass(limited, 'status-text')[0]!.text).toBe(visitorLimitSentence(3));
    expect(limited.elements.filter((element) => 'aria-invalid' in element.attributes)).toEqual([]);
  });

  it('follows whatever field list it is given', () => {
    const fields: FieldList = { ...CONTACT_FIELDS, functie: { ...CONTACT_FIELDS.company, label: 'Functie' } };
    const added = readHtml(refusedPostPage({ fields, values: { functie: 'Controller' }, problems: {} }));
    expect(added.formValues().functie).toBe('Controller');
    expect(added.all('label').find((label) => label.attributes.for === 'contact-functie')!.text).toBe('Functie');
  });
});

describe('which form posts get the form back', () => {
  const posted = contactEvent({
    headers: { 'content-type': FORM_CONTENT_TYPE },
    body: new URLSearchParams({ ...VALID_BODY, [`message`]: '<b>vet</b>' }).toString(),
  });
  const reply = (response: HttpResult) => formReply(posted, response, CONTACT_FIELDS);
  const typedIn = (answer: HttpResult) => readHtml(answer.body!).formValues().message;

  it('refused fields: 400 with the form filled in, never cached, nothing in an address', () => {
    const answer = reply(errorResponse(400, 'Controleer de gemarkeerde velden.', { email: 'Vul een geldig e-mailadres in.' }));
    expect(answer.statusCode).toBe(400);
    expect(answer.headers).toEqual({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    expect(typedIn(answer)).toBe('<b>vet</b>');
  });

  it('the visitor limit: 429 with its Retry-After, and the one sentence with this visitor’s minutes', () => {
    const limited = errorResponse(429, 'U hebt in korte tijd te veel berichten verzonden.');
    const answer = reply({ ...limited, headers: { ...limited.headers, 'Retry-After': '241' } });
    expect(answer).toMatchObject({ statusCode: 429, headers: { 'Retry-After': '241', 'Cache-Control': 'no-store' } });
    const page = readHtml(answer.body!);
    expect(byClass(page, 'status-text')[0]!.text).toBe(visitorLimitSentence(5));
    expect(page.readable()).not.toContain('Er is een fout opgetreden');
    expect(typedIn(answer)).toBe('<b>vet</b>');
  });

  it('a fault of ours: its status, and the form filled in', () => {
    const answer = reply(errorResponse(503, 'Uw bericht kon nu niet worden opgeslagen.'));
    expect(answer.statusCode).toBe(503);
    expect(byClass(readHtml(answer.body!), 'status-text')[0]!.text).toBe(refusedPost.failed);
    expect(typedIn(answer)).toBe('<b>vet</b>');
  });

  it('sent, from another site, or unreadable: 303 to the page, with nothing typed echoed back', () => {
    expect(reply({ statusCode: 200, headers: {}, body: '{"id":"x"}' }).headers).toMatchObject({ Location: FORM_RESULT_PAGES.sent });
    expect(reply(errorResponse(403, 'Niet via de site.')).headers).toMatchObject({ Location: FORM_RESULT_PAGES.crossSite });
    expect(reply(errorResponse(400, 'Het bericht kon niet worden gelezen.')).headers).toMatchObject({ Location: FORM_RESULT_PAGES.check });
    expect(reply(errorResponse(413, 'Te groot.')).headers).toMatchObject({ Location: FORM_RESULT_PAGES.check });
  });
});
