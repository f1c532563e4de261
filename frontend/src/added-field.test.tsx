/**
 * A field added to the contact-field list (the shared row in @site/local/field-fixture)
 * reaches every part of the site without any other change: the form, the no-script check
 * page's rules, and the privacy statement's list of what the form collects and may be left out. The function's
 * side of the same walk (validation, storage, e-mail, `npm run messages`) is in
 * lambda/test/added-field.test.ts.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { HONEYPOT_FIELD } from '@site/core/contract';
import { FIELDS_WITH_JOB_TITLE } from '@site/testing/fixtures/fields';
import { ContactForm } from './contact/ContactForm';
import { FormResult } from './contact/FormResult';
import { dataRecords, privacySections, RECORD_LABELS, type Inline } from './content/privacy';
import { ToastProvider, Toaster } from './toast';
import { contactForm } from './content/site';

const FILLED = { name: 'Anna de Vries', email: 'anna@bedrijf.nl', message: 'Graag een gesprek.' };

describe('a field added to the contact-field list', () => {
  it('gets an input of its own on the form, and what was typed there is sent', async () => {
    const fetchMock = vi.fn<typeof fetch>().mockResolvedValue(new Response('{"id":"x"}', { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();
    render(
      <ToastProvider>
        <ContactForm fields={FIELDS_WITH_JOB_TITLE} />
        <Toaster />
      </ToastProvider>,
    );
    const jobTitle = screen.getByLabelText<HTMLInputElement>('Functie');
    expect(jobTitle).toHaveAttribute('name', 'functie');
    expect(jobTitle).toHaveAttribute('type', 'text');
    expect(jobTitle).toHaveAttribute('autocomplete', 'organization-title');
    expect(jobTitle).not.toBeRequired();

    await user.type(screen.getByLabelText(/^Naam/), FILLED.name);
    await user.type(screen.getByLabelText(/^E-mailadres/), FILLED.email);
    await user.type(screen.getByLabelText(/^Bericht/), FILLED.message);
    await user.type(jobTitle, ' Controller ');
    await user.click(screen.getByRole('button', { name: contactForm.submit }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(JSON.parse(fetchMock.mock.calls[0]![1]!.body as string)).toEqual({
      ...FILLED,
      phone: '',
      company: '',
      functie: 'Controller',
      [HONEYPOT_FIELD]: '',
    });
  });

  it('is listed with its rules on the page a form post without scripts is sent to when something is wrong', () => {
    render(<FormResult result="check" fields={FIELDS_WITH_JOB_TITLE} />);
    const rules = within(screen.getByRole('main'))
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(rules).toHaveLength(Object.keys(FIELDS_WITH_JOB_TITLE).length);
    expect(rules.at(-1)).toBe('Functie: maximaal 100 tekens');
  });

  it('is named in the privacy statement among what the form collects, as optional, and as one a visitor may leave out', () => {
    const facts = { retentionDays: 365, region: 'eu-west-1', visitorWindowMinutes: 10, spamRetentionDays: 14 };
    const what = dataRecords(facts, FIELDS_WITH_JOB_TITLE).bericht!.rows.find((row) => row.label === RECORD_LABELS.what)!.text;
    // Plain text, every piece of it: no link, no retention period.
    expect(
      (what as Inline[][])
        .slice(0, 2)
        .map((item) => item.map((piece) => (typeof piece === 'string' ? piece : JSON.stringify(piece))).join('')),
    ).toEqual(['uw naam, uw e-mailadres en uw bericht;', 'uw telefoonnummer, de bedrijfsnaam en uw functie, indien ingevuld;']);
    const required = privacySections(facts, FIELDS_WITH_JOB_TITLE).find((section) => section.id === 'verplicht')!;
    expect(JSON.stringify(required.blocks)).toContain('Uw telefoonnummer, de bedrijfsnaam en uw functie mag u weglaten.');
  });
});
