import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { App } from './App';
import { ErrorScreen, errorDetail } from './components/ErrorScreen';
import { contactForm, firm, footer, nav } from './content/site';
import { RouteErrorBoundary } from './components/RouteErrorBoundary';
import { CONTACT_FIELDS } from '@site/core/content/contact-fields';
import { FORM_RESULT_PAGES, fieldNames, refusedFieldsPage } from '@site/core/contract';
import { routeFor } from './routes';
import { asRead } from '@site/testing/as-read';

describe('routing', () => {
  it('serves the home page at / (and /index.html), the privacy statement at /privacy and the 404 page everywhere else', () => {
    expect(routeFor('/')).toBe('home');
    expect(routeFor('/index.html')).toBe('home');
    expect(routeFor('/privacy')).toBe('privacy');
    expect(routeFor('/privacy.html')).toBe('privacy');
    for (const path of ['/does-not-exist', '/about', '/404.html', '//', '/index.htm', '/privacy/', '/Privacy', '/privacy.htm'])
      expect(routeFor(path)).toBe('not-found');
  });

  it('links the privacy statement from the contact form’s note and from the footer', () => {
    render(<App route="home" />);
    const note = screen.getByText(/We gebruiken uw gegevens om op uw bericht te reageren\./);
    expect(within(note).getByRole('link', { name: contactForm.privacyLink.label })).toHaveAttribute('href', '/privacy');
    expect(within(screen.getByRole('contentinfo')).getByRole('link', { name: 'Privacyverklaring' })).toHaveAttribute('href', '/privacy');
  });

  it('shows the firm’s KvK number and btw-id in the footer', () => {
    render(<App route="home" />);
    const legal = within(screen.getByRole('contentinfo')).getByRole('list', { name: footer.legalLabel });
    expect(legal).toHaveTextContent(`KvK ${firm.kvk}`);
    expect(legal).toHaveTextContent(`Btw-id ${firm.vatId}`);
  });

  it('renders the privacy statement with one h1 and no skipped heading level', async () => {
    render(<App route="privacy" />);
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Privacyverklaring');
    const levels = [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => Number(h.tagName[1]));
    levels.forEach((level, i) => {
      if (i > 0) expect(level - levels[i - 1]!).toBeLessThanOrEqual(1);
    });
  });

  it('serves the form’s result pages at the addresses the function sends a form post on to', () => {
    expect(routeFor(FORM_RESULT_PAGES.sent)).toBe('form-sent');
    expect(routeFor(`${FORM_RESULT_PAGES.sent}.html`)).toBe('form-sent');
    expect(routeFor(FORM_RESULT_PAGES.check)).toBe('form-check');
    expect(routeFor(FORM_RESULT_PAGES.failed)).toBe('form-failed');
    expect(routeFor(FORM_RESULT_PAGES.crossSite)).toBe('form-crossSite');
    expect(routeFor(FORM_RESULT_PAGES.limited)).toBe('form-limited');
    expect(routeFor(FORM_RESULT_PAGES.busy)).toBe('form-busy');
    // Every page the function may name refused fields in, in the table's order.
    expect(routeFor(refusedFieldsPage(['message', 'email']))).toBe('form-check/email-message');
    expect(routeFor(refusedFieldsPage(fieldNames(CONTACT_FIELDS)))).toBe(`form-check/${fieldNames(CONTACT_FIELDS).join('-')}`);
    for (const path of ['/controleer-bericht/message-email', '/controleer-bericht/website', '/controleer-bericht/', '/niet-verzonden/']) {
      expect(routeFor(path)).toBe('not-found');
    }
    for (const path of ['/bedankt/', '/Bedankt', '/bedankt.htm', '/.html']) expect(routeFor(path)).toBe('not-found');
  });

  it('renders the home page with landmarks, one h1 and the sections in order', () => {
    render(<App route="home" />);
    expect(screen.getByRole('banner')).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: nav.label })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Navigatie' })).toBeInTheDocument();
    expect(screen.getByRole('main')).toBeInTheDocument();
    expect(screen.getByRole('contentinfo')).toBeInTheDocument();
    const h1s = screen.getAllByRole('heading', { level: 1 });
    expect(h1s.map((h) => asRead(h.textContent))).toEqual(['Finance Professionals Met een streepje voor']);
    expect([...document.querySelectorAll('main section[id]')].map((s) => s.id)).toEqual(['home', 'about', 'services', 'contact']);
    expect(screen.getByRole('link', { name: nav.skipLink })).toHaveAttribute('href', '#main');
  });

  it('keeps headings in order: no level is skipped', () => {
    render(<App route="home" />);
    const levels = [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => Number(h.tagName[1]));
    levels.forEach((level, i) => {
      if (i > 0) expect(level - levels[i - 1]!).toBeLessThanOrEqual(1);
    });
  });

  it('renders the 404 page with its text and a link home', () => {
    render(<App route="not-found" />);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Oops! Page not found');
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
  });
});

function Throws({ error }: { error: unknown }): never {
  throw error;
}

describe('error screen', () => {
  it('shows the status and its text when the failure carries them', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <RouteErrorBoundary>
        <Throws error={{ status: 503, statusText: 'Service Unavailable' }} />
      </RouteErrorBoundary>,
    );
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Unexpected Application Error!');
    expect(screen.getByText('503 Service Unavailable')).toBeInTheDocument();
  });

  it('shows the message otherwise', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(
      <RouteErrorBoundary>
        <Throws error={new Error('Kon de pagina niet opbouwen')} />
      </RouteErrorBoundary>,
    );
    expect(screen.getByText('Kon de pagina niet opbouwen')).toBeInTheDocument();
    expect(errorDetail('plain')).toBe('plain');
  });

  it('offers the way home', () => {
    render(<ErrorScreen error={new Error('x')} />);
    expect(screen.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
  });
});
