import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { e164 } from '@site/core/notation';
import { contact, contactForm, expertise, firm } from '../content/site';
import { Contact } from './Contact';
import { EXPERTISE_FADE_MS, EXPERTISE_INTERVAL_MS } from './expertise-rotation';
import { ToastProvider } from '../toast';
import { named } from '@site/testing/as-read';

const shownTerm = () => document.querySelector('.expertise-term[data-active]')?.textContent;
const terms = () => document.querySelector('.expertise-terms')!;

describe('Contact', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function renderContact() {
    render(
      <ToastProvider>
        <Contact />
      </ToastProvider>,
    );
  }

  it('rotates the expertise term every 3000 ms with a 500 ms fade, in order', () => {
    expect([EXPERTISE_INTERVAL_MS, EXPERTISE_FADE_MS]).toEqual([3000, 500]);
    renderContact();
    expect(screen.getByText('Onze expertise omvat:', { exact: false })).toBeInTheDocument();
    expect(shownTerm()).toBe('Compliance');
    act(() => vi.advanceTimersByTime(3000));
    expect(terms()).toHaveClass('is-fading');
    expect(shownTerm()).toBe('Compliance');
    act(() => vi.advanceTimersByTime(500));
    expect(terms()).not.toHaveClass('is-fading');
    expect(shownTerm()).toBe('Business Control');
  });

  it('gives screen readers the whole list once instead of the changing word, each English term marked as English', () => {
    renderContact();
    expect(terms()).toHaveAttribute('aria-hidden', 'true');
    const list = document.querySelector('.expertise-label .visually-hidden')!;
    expect(list.textContent).toBe(` ${expertise.join(', ')}`);
    const marked = [...list.children].map((term) => [term.textContent, term.getAttribute('lang')]);
    expect(marked).toEqual(expertise.map((term) => [term, term === 'Innovatie' ? null : 'en']));
    expect([...terms().children].map((term) => term.getAttribute('lang'))).toEqual(marked.map(([, lang]) => lang));
  });

  it('can be paused and resumed', () => {
    renderContact();
    const pause = screen.getByRole('button', { name: contact.pauseRotation });
    act(() => pause.click());
    expect(pause).toHaveAttribute('aria-pressed', 'true');
    act(() => vi.advanceTimersByTime(9000));
    expect(shownTerm()).toBe('Compliance');
    act(() => pause.click());
    act(() => vi.advanceTimersByTime(3500));
    expect(shownTerm()).toBe('Business Control');
  });

  it('shows the address in Apeldoorn, a mailto link and a tel link', () => {
    renderContact();
    const city = screen.getByText(/Apeldoorn/);
    expect(city.closest('li')).toHaveTextContent(`${firm.address.street}, ${firm.address.postalCode} Apeldoorn`);
    // The postal code stays with its city on one line.
    expect(city).toHaveClass('nowrap');
    expect(city).toHaveTextContent(`${firm.address.postalCode} Apeldoorn`);
    expect(screen.getByRole('link', { name: firm.email })).toHaveAttribute('href', `mailto:${firm.email}`);
    expect(screen.getByRole('link', { name: firm.phone })).toHaveAttribute('href', `tel:${e164(firm.phone)}`);
    expect(screen.getByRole('heading', { level: 3, name: named(contactForm.title) })).toBeInTheDocument();
  });
});
