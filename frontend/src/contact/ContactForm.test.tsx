import { REPLY_PROMISE } from '@site/core/content/promise';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { hydrateRoot, type Root } from 'react-dom/client';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { renderToString } from 'react-dom/server';
import { CONTACT_FIELDS, ENCODED_WORD_EMAIL_MESSAGE, INVALID_EMAIL_MESSAGE, tooLongMessage } from '@site/core/content/contact-fields';
import { API_PATH, HONEYPOT_FIELD, IDEMPOTENCY_HEADER } from '@site/core/contract';
import { contactForm, firm, phoneHref, sentConfirmation, toasts } from '../content/site';
import { REQUEST_TIMEOUT_MS } from './send-message';
import { COUNT_ANNOUNCE_DELAY_MS, ContactForm } from './ContactForm';
import { TOAST_DURATION_MS, ToastProvider, Toaster } from '../toast';
import { named } from '@site/testing/as-read';

const { messages } = contactForm;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let fetchMock: Mock<typeof fetch>;

beforeEach(() => {
  fetchMock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.useRealTimers();
});

/**
 * For a test whose subject is a time (a toast's life): the page's clock is the test's to move,
 * and user-event moves it through its own waits between keystrokes, so typing takes no real
 * time. `findBy` polls on the page's clock, so the clock also follows real time.
 */
function onFakeClock(): UserEvent {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  return userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
}

function renderForm() {
  render(
    <ToastProvider>
      <ContactForm />
      <Toaster />
    </ToastProvider>,
  );
}

const field = (label: RegExp) => screen.getByLabelText<HTMLInputElement | HTMLTextAreaElement>(label);
const fields = () => ({
  name: field(/^Naam/),
  email: field(/^E-mailadres/),
  phone: field(/^Telefoonnummer/),
  company: field(/^Bedrijf/),
  message: field(/^Bericht/),
});
const toastTexts = () => [...document.querySelectorAll('.toast-message')].map((toast) => toast.textContent);
const inToasts = () => within(screen.getByRole('region', { name: toasts.regionLabel }));
/** The form's button, also while the form is hidden behind its confirmation. */
const submit = () => screen.getByRole('button', { name: /Bericht verzenden|Bezig met verzenden/, hidden: true });
const confirmation = () => screen.queryByRole('heading', { name: /^Bedankt/ })?.closest('.contact-sent') ?? null;

const FILLED = {
  name: 'Anna de Vries',
  email: 'anna@bedrijf.nl',
  phone: '055 123 45 67',
  company: 'De Vries BV',
  message: 'Graag een gesprek.',
};

async function fill(user: UserEvent, values: Partial<typeof FILLED> = FILLED) {
  const inputs = fields();
  for (const [key, value] of Object.entries(values) as [keyof typeof FILLED, string][]) {
    await user.clear(inputs[key]);
    if (value) await user.type(inputs[key], value);
  }
}

/** A fetch that answers when the test says so. */
function deferredFetch() {
  let answer!: (response: Response) => void;
  fetchMock.mockImplementationOnce(() => new Promise<Response>((resolve) => (answer = resolve)));
  return (status = 200) => answer(new Response(JSON.stringify({ id: 'x' }), { status }));
}

const sentKey = (call: number) => (fetchMock.mock.calls[call]![1]!.headers as Record<string, string>)[IDEMPOTENCY_HEADER];

describe('ContactForm', () => {
  it('has labelled fields with the right types, autocomplete and required marks, and cuts nothing off at the limits', () => {
    renderForm();
    const { name, email, phone, company, message } = fields();
    expect(screen.getByRole('form', { name: named(contactForm.title) })).toHaveAttribute('novalidate');
    expect(name).toBeRequired();
    expect(email).toBeRequired();
    expect(message).toBeRequired();
    expect(phone).not.toBeRequired();
    expect(company).not.toBeRequired();
    expect(email).toHaveAttribute('type', 'email');
    expect([name, email, phone, company].map((i) => i.getAttribute('autocomplete'))).toEqual(['name', 'email', 'tel', 'organization']);
    // No maxLength: the browser would drop pasted characters without a word.
    for (const input of [name, email, phone, company, message]) expect(input).not.toHaveAttribute('maxlength');
  });

  it('hides the honeypot from people, the keyboard and screen readers', () => {
    renderForm();
    const honeypot = document.querySelector(`input[name="${HONEYPOT_FIELD}"]`) as HTMLInputElement;
    expect(honeypot.tabIndex).toBe(-1);
    expect(honeypot).toHaveAttribute('autocomplete', 'off');
    expect(honeypot.closest('[aria-hidden="true"]')).not.toBeNull();
    expect(screen.queryByRole('textbox', { name: /Website/ })).toBeNull();
  });

  it.each([
    ['all empty', { name: '', email: '', message: '' }],
    ['only whitespace in name', { ...FILLED, name: '   ' }],
    ['only whitespace in email', { ...FILLED, email: ' \t ' }],
    ['message missing', { ...FILLED, message: '' }],
  ])('refuses to send when a required field is empty after trimming (%s)', async (_, values) => {
    const user = userEvent.setup();
    renderForm();
    await fill(user, values);
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.required);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends once to the API with JSON, an idempotency key and a timeout; then shows success and clears the fields', async () => {
    const user = userEvent.setup();
    const timeout = vi.spyOn(AbortSignal, 'timeout');
    renderForm();
    await fill(user, { ...FILLED, name: '  Anna de Vries  ' });
    const answer = deferredFetch();
    await user.click(submit());

    expect(screen.getByRole('status')).toHaveTextContent(messages.sending);
    // The sending shows on the button, which keeps the focus: busy, not disabled.
    expect(submit()).toHaveAccessibleName(contactForm.submitting);
    expect(submit()).toHaveAttribute('aria-busy', 'true');
    expect(submit()).toHaveAttribute('aria-disabled', 'true');
    expect(submit()).toBeEnabled();
    expect(submit()).toHaveFocus();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe(API_PATH);
    expect(init).toMatchObject({ method: 'POST', credentials: 'same-origin' });
    expect(init!.headers).toEqual({ 'Content-Type': 'application/json', [IDEMPOTENCY_HEADER]: expect.stringMatching(UUID) });
    expect(JSON.parse(init!.body as string)).toEqual({ ...FILLED, [HONEYPOT_FIELD]: '' });
    expect(timeout).toHaveBeenCalledWith(REQUEST_TIMEOUT_MS);
    expect(REQUEST_TIMEOUT_MS).toBe(15_000);

    answer(200);
    expect(await inToasts().findByText(messages.success)).toBeInTheDocument();
    expect(screen.queryByText(messages.sending)).toBeNull();
    for (const input of Object.values(fields())) expect(input).toHaveValue('');
    expect(submit()).toHaveAttribute('aria-busy', 'false');
  });

  it('sends what a bot typed into the honeypot, so the server can drop it', async () => {
    const user = userEvent.setup();
    renderForm();
    await fill(user);
    const honeypot = document.querySelector(`input[name="${HONEYPOT_FIELD}"]`) as HTMLInputElement;
    await user.type(honeypot, 'https://spam.example');
    fetchMock.mockResolvedValueOnce(new Response('{}', { status: 200 }));
    await user.click(submit());
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(JSON.parse(fetchMock.mock.calls[0]![1]!.body as string)[HONEYPOT_FIELD]).toBe('https://spam.example');
  });

  const failures: [string, () => void][] = [
    ['a network error', () => fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'))],
    ['a 500 answer', () => fetchMock.mockResolvedValueOnce(new Response('{"error":"x"}', { status: 500 }))],
    ['a 400 answer', () => fetchMock.mockResolvedValueOnce(new Response('{"error":"x"}', { status: 400 }))],
    [
      'no answer within 15 s',
      () => {
        const controller = new AbortController();
        vi.spyOn(AbortSignal, 'timeout').mockReturnValue(controller.signal);
        fetchMock.mockImplementationOnce(
          (_, init) =>
            new Promise<Response>((_, reject) => {
              init!.signal!.addEventListener('abort', () => reject(init!.signal!.reason as Error));
              setTimeout(() => controller.abort(new DOMException('The operation timed out.', 'TimeoutError')), 10);
            }),
        );
      },
    ],
  ];

  it.each(failures)('on %s: drops the loading toast, shows the error toast, logs the error and keeps the fields', async (_, arrange) => {
    const user = userEvent.setup();
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderForm();
    await fill(user);
    arrange();
    await user.click(submit());

    expect(await screen.findByRole('alert')).toHaveTextContent(messages.failure);
    expect(screen.queryByText(messages.sending)).toBeNull();
    expect(consoleError).toHaveBeenCalledTimes(1);
    // The error itself, whatever its kind (jsdom's DOMException is no Error subclass, a browser's is).
    expect(consoleError.mock.calls[0]![0]).toMatchObject({ name: expect.any(String), message: expect.any(String) });
    const inputs = fields();
    for (const key of Object.keys(FILLED) as (keyof typeof FILLED)[]) expect(inputs[key]).toHaveValue(FILLED[key]);
    expect(submit()).toHaveAttribute('aria-busy', 'false');
  });

  it('sends a double-clicked submit once', async () => {
    const user = userEvent.setup();
    renderForm();
    await fill(user);
    const answer = deferredFetch();
    await user.dblClick(submit());
    expect(fetchMock).toHaveBeenCalledTimes(1);
    // A press while it is busy, by mouse or keyboard, sends nothing either.
    await user.click(submit());
    await user.keyboard('{Enter}');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    answer(200);
    await inToasts().findByText(messages.success);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('reuses the idempotency key while the same message is retried, and takes a new one after a change or a success', async () => {
    const user = userEvent.setup();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderForm();
    await fill(user);
    fetchMock.mockResolvedValue(new Response('{}', { status: 503 }));

    await user.click(submit());
    await screen.findByText(messages.failure);
    await user.click(submit());
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(sentKey(0)).toMatch(UUID);
    expect(sentKey(1)).toBe(sentKey(0));

    await user.type(fields().message, ' Bij voorkeur volgende week.');
    await waitFor(() => expect(submit()).toHaveAttribute('aria-busy', 'false'));
    await user.click(submit());
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(3));
    expect(sentKey(2)).not.toBe(sentKey(1));

    fetchMock.mockResolvedValue(new Response('{}', { status: 200 }));
    await waitFor(() => expect(submit()).toHaveAttribute('aria-busy', 'false'));
    await user.click(submit());
    await inToasts().findByText(messages.success);
    expect(sentKey(3)).toBe(sentKey(2));

    // The same words sent again after a success are a new message.
    await user.click(screen.getByRole('button', { name: sentConfirmation.another }));
    await fill(user, { ...FILLED, message: 'Graag een gesprek. Bij voorkeur volgende week.' });
    await user.click(submit());
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(5));
    expect(sentKey(4)).not.toBe(sentKey(3));
  });
});

describe('ContactForm messages at the fields', () => {
  it('checks the e-mail address before sending: a Dutch message tied to the field, focus on it, nothing sent', async () => {
    const user = userEvent.setup();
    renderForm();
    await fill(user, { ...FILLED, email: 'jan' });
    await user.click(submit());

    const { email, name } = fields();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription(INVALID_EMAIL_MESSAGE);
    expect(email).toHaveFocus();
    expect(name).not.toHaveAttribute('aria-invalid');
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).toBeNull();

    // Typing clears the message; a valid address is sent.
    await user.type(email, '@voorbeeld.nl');
    expect(email).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText(INVALID_EMAIL_MESSAGE)).toBeNull();
    fetchMock.mockResolvedValueOnce(new Response('{"id":"x"}', { status: 200 }));
    await user.click(submit());
    await inToasts().findByText(messages.success);
    expect(JSON.parse(fetchMock.mock.calls[0]![1]!.body as string)).toMatchObject({ email: 'jan@voorbeeld.nl' });
  });

  it('says before sending that an address may not hold =?, the start of an encoded word', async () => {
    const user = userEvent.setup();
    renderForm();
    await fill(user, { ...FILLED, email: '=?utf-8?q?jan=40evil.example?=@voorbeeld.nl' });
    await user.click(submit());
    expect(fields().email).toHaveAccessibleDescription(ENCODED_WORD_EMAIL_MESSAGE);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it.each([
    ['jan@localhost', false],
    ['jan@voorbeeld.123', false],
    ['jan,piet@voorbeeld.nl', false],
    ['jän@voorbeeld.nl', false],
    ["o'brien@example.ie", true],
    ['Jan.de.Vries+offerte@mail.voorbeeld.co.uk', true],
  ])('uses the server’s own pattern: %s is %s', async (address, accepted) => {
    const user = userEvent.setup();
    renderForm();
    await fill(user, { ...FILLED, email: address });
    fetchMock.mockResolvedValueOnce(new Response('{"id":"x"}', { status: 200 }));
    await user.click(submit());
    if (accepted) await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    else {
      expect(fields().email).toHaveAccessibleDescription(INVALID_EMAIL_MESSAGE);
      expect(fetchMock).not.toHaveBeenCalled();
    }
  });

  it('keeps the spec’s toast for empty required fields, and also names each empty field at the field', async () => {
    const user = userEvent.setup();
    renderForm();
    await fill(user, { ...FILLED, name: '  ', message: '' });
    await user.click(submit());

    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([messages.required]);
    const { name, email, message } = fields();
    expect(name).toHaveAccessibleDescription(CONTACT_FIELDS.name.absent);
    expect(message).toHaveAccessibleDescription(CONTACT_FIELDS.message.absent);
    expect(email).not.toHaveAttribute('aria-invalid');
    expect(name).toHaveFocus();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('puts every field message of a 400 answer at its field, with the spec’s error toast', async () => {
    const user = userEvent.setup();
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderForm();
    await fill(user);
    const answered = { email: 'Vul een geldig e-mailadres in.', phone: 'Uw telefoonnummer is te lang (maximaal 40 tekens).', other: 'x' };
    fetchMock.mockResolvedValueOnce(
      new Response(JSON.stringify({ error: 'Controleer de gemarkeerde velden.', fields: answered }), { status: 400 }),
    );
    await user.click(submit());

    expect(await screen.findByRole('alert')).toHaveTextContent(messages.failure);
    const { email, phone, name } = fields();
    expect(email).toHaveAccessibleDescription(answered.email);
    expect(phone).toHaveAccessibleDescription(answered.phone);
    expect(name).not.toHaveAttribute('aria-invalid');
    await waitFor(() => expect(email).toHaveFocus());
    expect(screen.queryByText('x')).toBeNull();
    expect(consoleError).toHaveBeenCalledTimes(1);
    for (const key of Object.keys(FILLED) as (keyof typeof FILLED)[]) expect(fields()[key]).toHaveValue(FILLED[key]);
  });

  it('clears the toasts of earlier sends on a new send, so one outcome shows at a time', async () => {
    const user = userEvent.setup();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderForm();
    await fill(user, { ...FILLED, message: '' });
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent(messages.required);

    await fill(user);
    const answer = deferredFetch();
    await user.click(submit());
    // Sending: only the loading toast, the earlier error is gone.
    expect(toastTexts()).toEqual([messages.sending]);
    answer(200);
    await inToasts().findByText(messages.success);
    expect(toastTexts()).toEqual([messages.success]);

    await user.click(screen.getByRole('button', { name: sentConfirmation.another }));
    await fill(user);
    fetchMock.mockResolvedValueOnce(new Response('{"error":"x"}', { status: 503 }));
    await user.click(submit());
    await screen.findByRole('alert');
    expect(toastTexts()).toEqual([messages.failure]);
  });

  it.each([
    ['a Retry-After of 421 seconds', { 'Retry-After': '421' }, 'U kunt over 8 minuten weer een bericht verzenden.'],
    ['a Retry-After of 30 seconds', { 'Retry-After': '30' }, 'U kunt over 1 minuut weer een bericht verzenden.'],
    ['the function’s answer without Retry-After (the optional WAF rule’s)', {}, 'U kunt over enkele minuten weer een bericht verzenden.'],
  ])(
    'over the limit with %s: keeps the spec’s failure text, then speaks of the visitor’s own limit, when to send again and how to reach the firm now',
    async (_, headers, again) => {
      const user = onFakeClock();
      vi.spyOn(console, 'error').mockImplementation(() => {});
      renderForm();
      await fill(user);
      fetchMock.mockResolvedValueOnce(new Response('{"error":"x"}', { status: 429, headers }));
      await user.click(submit());

      const alert = await screen.findByRole('alert');
      expect(alert.querySelector('.toast-message')).toHaveTextContent(messages.failure);
      expect([...alert.querySelectorAll('.toast-detail')].map((line) => line.textContent)).toEqual([
        `U hebt in korte tijd het maximale aantal berichten verzonden. ${again}`,
        `Liever direct contact? Bel ons op ${firm.phone} of mail naar ${firm.email}.`,
      ]);
      // Nothing went wrong on the firm's side, and the button is ready for later.
      expect(alert.querySelector('.toast-detail')!.textContent).not.toMatch(/fout|storing|mis/);
      expect(submit()).toHaveAttribute('aria-busy', 'false');
      expect(submit()).toHaveFocus();
      expect(within(alert).getByRole('link', { name: firm.phone })).toHaveAttribute('href', phoneHref);
      expect(within(alert).getByRole('link', { name: firm.email })).toHaveAttribute('href', `mailto:${firm.email}`);
      // It holds a number to note down: it stays until closed, unlike the other toasts.
      act(() => vi.advanceTimersByTime(TOAST_DURATION_MS * 5));
      expect(screen.getByRole('alert')).toBe(alert);
      for (const key of Object.keys(FILLED) as (keyof typeof FILLED)[]) expect(fields()[key]).toHaveValue(FILLED[key]);
    },
  );

  it('at API Gateway’s stage throttle (429 before the function, no Retry-After): keeps the spec’s failure text, then says the site is busy for everyone, not the visitor’s own limit, and how to reach the firm now', async () => {
    const user = userEvent.setup();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderForm();
    await fill(user);
    // API Gateway's own answer at a stage's rate limit.
    fetchMock.mockResolvedValueOnce(
      new Response('{"message":"Too Many Requests"}', { status: 429, headers: { 'Content-Type': 'application/json' } }),
    );
    await user.click(submit());

    const alert = await screen.findByRole('alert');
    expect(alert.querySelector('.toast-message')).toHaveTextContent(messages.failure);
    expect([...alert.querySelectorAll('.toast-detail')].map((line) => line.textContent)).toEqual([
      contactForm.busy,
      `Liever direct contact? Bel ons op ${firm.phone} of mail naar ${firm.email}.`,
    ]);
    expect(alert).not.toHaveTextContent(contactForm.limited.again(undefined));
    expect(within(alert).getByRole('link', { name: firm.phone })).toHaveAttribute('href', phoneHref);
    expect(within(alert).getByRole('link', { name: firm.email })).toHaveAttribute('href', `mailto:${firm.email}`);
    expect(submit()).toHaveAttribute('aria-busy', 'false');
    for (const key of Object.keys(FILLED) as (keyof typeof FILLED)[]) expect(fields()[key]).toHaveValue(FILLED[key]);
  });
});

describe('ContactForm once the message is sent', () => {
  async function send(user: UserEvent, values: Partial<typeof FILLED> = FILLED) {
    await fill(user, values);
    fetchMock.mockResolvedValueOnce(new Response(JSON.stringify({ id: 'x' }), { status: 200 }));
    await user.click(submit());
    await inToasts().findByText(messages.success);
  }

  it('puts a confirmation in the form’s place that thanks by given name, says when a reply comes and how to call, and takes the focus', async () => {
    const user = userEvent.setup();
    renderForm();
    await send(user);

    const heading = screen.getByRole('heading', { name: 'Bedankt, Anna' });
    expect(heading).toHaveFocus();
    const card = within(confirmation() as HTMLElement);
    expect(card.getByText(messages.success)).toBeInTheDocument();
    // One promise of when a reply comes: the spec's own words, nothing beside them.
    expect(card.getByText(messages.success)).toHaveTextContent(REPLY_PROMISE);
    expect(confirmation()!.textContent.replace(/\s/g, ' ').split(REPLY_PROMISE)).toHaveLength(2);
    expect(confirmation()!.textContent).not.toMatch(/werkdag|binnen/);
    expect(card.getByRole('link', { name: firm.phone })).toHaveAttribute('href', phoneHref);
    // The form is out of sight and out of the way, its fields empty, as the spec has them after a success.
    expect(screen.queryByRole('form')).toBeNull();
    expect(screen.queryByRole('textbox')).toBeNull();
    for (const input of Object.values(fields())) expect(input).toHaveValue('');
  });

  it('stays when the spec’s toast has gone', async () => {
    const user = onFakeClock();
    renderForm();
    await send(user);
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS * 2));
    expect(toastTexts()).toEqual([]);
    expect(screen.getByRole('heading', { name: 'Bedankt, Anna' })).toBeInTheDocument();
  });

  it.each([
    ['dr. J. de Vries', sentConfirmation.thanks()],
    ['Van den Berg', sentConfirmation.thanks()],
    ['  Cher  ', 'Bedankt, Cher'],
  ])('thanks “%s” as “%s”', async (name, thanks) => {
    const user = userEvent.setup();
    renderForm();
    await send(user, { ...FILLED, name });
    expect(screen.getByRole('heading', { level: 3, name: thanks })).toHaveFocus();
  });

  it('shows a name with markup in it as the text typed', async () => {
    const user = userEvent.setup();
    renderForm();
    await send(user, { ...FILLED, name: '<img src=x onerror=alert(1)> de Vries' });
    expect(screen.getByRole('heading', { level: 3 })).toHaveTextContent('Bedankt, <img');
    expect(confirmation()!.querySelector('img')).toBeNull();
  });

  it('brings back the empty form for another message, focus on its first field, and sends that as a new message', async () => {
    const user = userEvent.setup();
    renderForm();
    await send(user);
    await user.click(screen.getByRole('button', { name: sentConfirmation.another }));

    expect(confirmation()).toBeNull();
    expect(screen.getByRole('form', { name: named(contactForm.title) })).toBeVisible();
    expect(fields().name).toHaveFocus();
    for (const input of Object.values(fields())) expect(input).toHaveValue('');
    await send(user, { ...FILLED, name: 'Bram', message: 'Nog een vraag.' });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(sentKey(1)).not.toBe(sentKey(0));
    expect(screen.getByRole('heading', { name: 'Bedankt, Bram' })).toHaveFocus();
  });
});

describe('ContactForm near the field limits', () => {
  const count = (id: string) => document.getElementById(`contact-${id}-count`);
  const liveRegion = () => document.querySelector('.contact-form [aria-live="polite"]')!;

  it('shows what is left from 90% of the limit on, and how much is too much past it, without cutting anything off', async () => {
    const user = userEvent.setup();
    renderForm();
    const { name } = fields();
    await user.click(name);
    await user.paste('x'.repeat(89));
    expect(count('name')).toBeNull();
    expect(name).not.toHaveAttribute('aria-describedby');

    await user.type(name, 'x');
    expect(count('name')).toHaveTextContent('Nog 10 van 100 tekens over');
    expect(name).toHaveAccessibleDescription('Nog 10 van 100 tekens over');

    await user.paste('x'.repeat(10));
    expect(count('name')).toHaveTextContent('Maximaal 100 tekens bereikt');
    await user.type(name, 'yz');
    expect(count('name')).toHaveTextContent('2 tekens te veel (maximaal 100)');
    expect(count('name')).toHaveClass('is-over');
    expect(name).toHaveValue(`${'x'.repeat(100)}yz`);
  });

  it('counts the message against its own limit, trimmed as it is sent', async () => {
    const user = userEvent.setup();
    renderForm();
    await user.click(fields().message);
    await user.paste(`  ${'a'.repeat(CONTACT_FIELDS.message.limit - 1)}  `);
    expect(count('message')).toHaveTextContent('Nog 1 van 5000 tekens over');
  });

  it('refuses to send text over a limit, with the server’s message at the field', async () => {
    const user = userEvent.setup();
    renderForm();
    await fill(user);
    await user.click(fields().company);
    // After 'De Vries BV': 11 characters too many.
    await user.paste('x'.repeat(CONTACT_FIELDS.company.limit));
    await user.click(submit());
    const { company } = fields();
    expect(company).toHaveAccessibleDescription(`${tooLongMessage('company')} 11 tekens te veel (maximaal 150)`);
    expect(company).toHaveFocus();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('tells a screen reader politely, once typing pauses, and not on every keystroke', () => {
    // Its subject is the pause, not the typing: each change comes at once (fireEvent), on a
    // clock that moves only when the test moves it, however slow the machine.
    vi.useFakeTimers();
    renderForm();
    const { name } = fields();
    const typeInName = (length: number) => fireEvent.change(name, { target: { value: 'x'.repeat(length) } });
    typeInName(50);
    act(() => vi.advanceTimersByTime(COUNT_ANNOUNCE_DELAY_MS + 100));
    expect(liveRegion()).toHaveTextContent(/^$/);

    typeInName(95);
    typeInName(96);
    expect(liveRegion()).toHaveTextContent(/^$/);
    act(() => vi.advanceTimersByTime(COUNT_ANNOUNCE_DELAY_MS - 100));
    expect(liveRegion()).toHaveTextContent(/^$/);
    act(() => vi.advanceTimersByTime(200));
    expect(liveRegion()).toHaveTextContent('Naam: Nog 4 van 100 tekens over');

    typeInName(97);
    expect(liveRegion()).toHaveTextContent('Naam: Nog 4 van 100 tekens over');
    act(() => vi.advanceTimersByTime(COUNT_ANNOUNCE_DELAY_MS + 100));
    expect(liveRegion()).toHaveTextContent('Naam: Nog 3 van 100 tekens over');
  });
});

describe('ContactForm without scripts', () => {
  it('is prerendered as a classic form post to the API, with the browser’s own checks', () => {
    const html = renderToString(
      <ToastProvider>
        <ContactForm />
      </ToastProvider>,
    );
    const form = new DOMParser().parseFromString(html, 'text/html').querySelector('form')!;
    expect(form.getAttribute('method')).toBe('post');
    expect(form.getAttribute('action')).toBe(API_PATH);
    // Scripts set noValidate once they run; until then the browser checks required and type="email".
    expect(form.hasAttribute('novalidate')).toBe(false);
    expect([...form.querySelectorAll('input, textarea')].map((input) => input.getAttribute('name'))).toEqual([
      ...Object.keys(CONTACT_FIELDS),
      HONEYPOT_FIELD,
    ]);
    // Nothing identifies a visitor: the page is the same for everyone (see contentKey in the function).
    expect(form.querySelectorAll('input[type="hidden"]')).toHaveLength(0);
  });
});

describe('ContactForm hydrated after the visitor started typing', () => {
  it('keeps every character typed before hydration, also after typing elsewhere, and sends it', async () => {
    const page = (
      <ToastProvider>
        <ContactForm />
        <Toaster />
      </ToastProvider>
    );
    const container = document.createElement('div');
    container.innerHTML = renderToString(page);
    document.body.append(container);
    // Typed into the prerendered form, before any script ran.
    const before = { name: FILLED.name, email: FILLED.email, message: FILLED.message };
    for (const [name, value] of Object.entries(before)) {
      container.querySelector<HTMLInputElement | HTMLTextAreaElement>(`[name="${name}"]`)!.value = value;
    }
    let root: Root | undefined;
    // Settled: React hydrates the form, then re-renders it with what it found in the fields.
    await act(() =>
      Promise.resolve().then(() => {
        root = hydrateRoot(container, page);
      }),
    );
    const user = userEvent.setup();
    // Typing into another field re-renders every field: none may fall back to what React last knew.
    await user.type(fields().company, FILLED.company);
    expect(fields().name).toHaveValue(FILLED.name);
    expect(fields().message).toHaveValue(FILLED.message);

    fetchMock.mockResolvedValueOnce(new Response(JSON.stringify({ id: 'x' }), { status: 200 }));
    await user.click(submit());
    await inToasts().findByText(messages.success);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(JSON.parse(fetchMock.mock.calls[0]![1]!.body as string)).toEqual({
      ...before,
      phone: '',
      company: FILLED.company,
      [HONEYPOT_FIELD]: '',
    });
    act(() => root!.unmount());
    container.remove();
  });
});
