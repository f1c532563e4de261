import { REPLY_PROMISE } from '@site/core/content/promise';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import { App } from '../App';
import { contactForm, firm, phoneHref, sentConfirmation } from '../content/site';
import { formResults } from '../content/form-results';

const BACK = /Ga met de knop Terug van uw browser terug naar het formulier: wat u hebt getypt, staat er dan nog\./;

describe('the form’s result pages (no scripts)', () => {
  it('confirms a sent message with the spec’s own words, its one promise of a reply and how to call, as the form’s confirmation does, and a way home', async () => {
    render(<App route="form-sent" />);
    const heading = await screen.findByRole('heading', { level: 1 });
    expect(heading).toHaveTextContent(formResults.sent.headline);
    expect(heading).toHaveTextContent(sentConfirmation.thanks());
    expect(heading).not.toHaveAttribute('lang');
    const main = within(screen.getByRole('main'));
    expect(main.getByText(contactForm.messages.success)).toBeInTheDocument();
    // One promise of when a reply comes: the spec's own words, nothing beside them.
    expect(screen.getByRole('main').textContent.replace(/\s/g, ' ').split(REPLY_PROMISE)).toHaveLength(2);
    expect(screen.getByRole('main').textContent).not.toMatch(/werkdag|binnen/);
    expect(main.getByRole('link', { name: firm.phone }).closest('p')).toHaveTextContent(`${sentConfirmation.call} ${firm.phone}`);
    expect(main.getByRole('link', { name: firm.phone })).toHaveAttribute('href', phoneHref);
    expect(screen.getByRole('link', { name: formResults.sent.link.label })).toHaveAttribute('href', '/');
  });

  it('says what each field asks for, from the field list, and how to get the typed text back', async () => {
    render(<App route="form-check" />);
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent(formResults.check.headline);
    const rules = within(screen.getByRole('main'))
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(rules).toEqual([
      'Naam: verplicht, maximaal 100 tekens',
      'E-mailadres: verplicht, een geldig adres, zoals naam@bedrijf.example, maximaal 254 tekens',
      'Telefoonnummer: maximaal 40 tekens',
      'Bedrijf: maximaal 150 tekens',
      'Bericht: verplicht, maximaal 5000 tekens',
    ]);
    expect(rules).toHaveLength(Object.keys(CONTACT_FIELDS).length);
    expect(screen.getByText(BACK)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: formResults.check.link.label })).toHaveAttribute('href', '/#contact');
  });

  it.each([
    [
      'form-check/email',
      formResults.check.refused(1),
      ['E-mailadres: verplicht, een geldig adres, zoals naam@bedrijf.example, maximaal 254 tekens'],
    ],
    [
      'form-check/name-phone-message',
      formResults.check.refused(2),
      ['Naam: verplicht, maximaal 100 tekens', 'Telefoonnummer: maximaal 40 tekens', 'Bericht: verplicht, maximaal 5000 tekens'],
    ],
  ] as const)('on %s names only the refused fields, with their rules', async (route, intro, rules) => {
    render(<App route={route} />);
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent(formResults.check.headline);
    expect(screen.getByText(intro)).toBeInTheDocument();
    const items = within(screen.getByRole('main'))
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(items).toEqual(rules);
    expect(screen.getByText(BACK)).toBeInTheDocument();
  });

  it('over the visitor limit: one true thing, the visitor’s own limit with the longest wait from the deploy’s window in the toast’s words, and how to reach the firm now', async () => {
    render(<App route="form-limited" />);
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent(formResults.limited.headline);
    expect(screen.queryByText(contactForm.messages.failure)).toBeNull();
    const again = screen.getByText(contactForm.limited.again(__VISITOR_WINDOW_MINUTES__, { atMost: true }));
    expect(again).toHaveAttribute('data-visitor-window-minutes', String(__VISITOR_WINDOW_MINUTES__));
    expect(screen.getByText(BACK)).toBeInTheDocument();
    const main = within(screen.getByRole('main'));
    expect(main.getByText(/^Liever direct contact\? Bel ons op/)).toHaveTextContent(
      `Liever direct contact? Bel ons op ${firm.phone} of mail naar ${firm.email}.`,
    );
    expect(main.getByRole('link', { name: firm.email })).toHaveAttribute('href', `mailto:${firm.email}`);
    expect(main.getByRole('link', { name: firm.phone })).toHaveAttribute('href', expect.stringMatching(/^tel:\+?\d+$/));
  });

  it('at the site’s own rate limit: the toast’s words, busy for everyone and not the visitor’s own limit, and how to reach the firm now', async () => {
    render(<App route="form-busy" />);
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent(formResults.busy.headline);
    expect(screen.getByText(contactForm.busy)).toBeInTheDocument();
    expect(screen.queryByText(contactForm.limited.again(__VISITOR_WINDOW_MINUTES__, { atMost: true }))).toBeNull();
    expect(screen.getByText(BACK)).toBeInTheDocument();
    const main = within(screen.getByRole('main'));
    expect(main.getByRole('link', { name: firm.email })).toHaveAttribute('href', `mailto:${firm.email}`);
    expect(main.getByRole('link', { name: firm.phone })).toHaveAttribute('href', expect.stringMatching(/^tel:\+?\d+$/));
    expect(main.getByRole('link', { name: formResults.busy.link.label })).toHaveAttribute('href', '/#contact');
  });

  it('says a failure is not the visitor’s doing, to try again later, and how to reach the firm directly', async () => {
    render(<App route="form-failed" />);
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent(formResults.failed.headline);
    expect(screen.getByText(/aan uw bericht ligt het niet\. Probeer het over enkele minuten opnieuw\./)).toBeInTheDocument();
    expect(screen.getByText(BACK)).toBeInTheDocument();
    const main = within(screen.getByRole('main'));
    expect(main.getByRole('link', { name: firm.email })).toHaveAttribute('href', `mailto:${firm.email}`);
    expect(main.getByRole('link', { name: firm.phone })).toHaveAttribute('href', expect.stringMatching(/^tel:\+?\d+$/));
  });

  it('says a post made from another site was not sent, why, and leads to the form on this site', async () => {
    render(<App route="form-crossSite" />);
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent(formResults.crossSite.headline);
    expect(screen.getByText(/vanaf een andere website naar ons verzonden/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: formResults.check.link.label })).toHaveAttribute('href', '/#contact');
  });
});
