import { StrictMode } from 'react';
import { act } from '@testing-library/react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from './App';
import { render } from './entry-server';
import type { Route } from './routes';

let root: Root | undefined;
afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
});

/** Puts prerendered markup in the page and hydrates it as main.tsx does. */
function hydrate(route: Route) {
  const container = document.createElement('div');
  container.innerHTML = render(route).html;
  document.body.append(container);
  const recoverable = vi.fn();
  const consoleError = vi.spyOn(console, 'error');
  act(() => {
    root = hydrateRoot(
      container,
      <StrictMode>
        <App route={route} />
      </StrictMode>,
      { onRecoverableError: recoverable },
    );
  });
  return { container, recoverable, consoleError };
}

describe('prerender and hydration', () => {
  it.each<Route>(['home', 'privacy', 'not-found', 'form-sent', 'form-check', 'form-failed'])(
    'hydrates the prerendered %s page without a mismatch',
    (route) => {
      const { recoverable, consoleError } = hydrate(route);
      expect(recoverable).not.toHaveBeenCalled();
      expect(consoleError).not.toHaveBeenCalled();
    },
  );

  it('prerenders the whole Dutch page with nothing hidden and the first expertise term', () => {
    const { html } = render('home');
    const page = new DOMParser().parseFromString(html, 'text/html');
    expect(page.querySelector('h1')!.textContent).toBe('Finance Professionals Met een streepje voor');
    for (const text of [
      'Professioneel advies en ondersteuning voor uw bedrijf',
      'Vraag meer informatie aan',
      'Stuur ons een bericht',
      'Alle rechten voorbehouden',
    ]) {
      expect(page.body.textContent).toContain(text);
    }
    // Nothing starts hidden, and no inline style the CSP would refuse.
    expect(page.querySelectorAll('[data-reveal], [style]')).toHaveLength(0);
    expect(page.querySelector('.expertise-term[data-active]')!.textContent).toBe('Compliance');
  });

  it('prerenders the privacy statement with the retention from the build, and no inline style', () => {
    const page = new DOMParser().parseFromString(render('privacy').html, 'text/html');
    expect(page.querySelector('h1')!.textContent).toBe('Privacyverklaring');
    expect(page.querySelector('[data-retention-days]')!.getAttribute('data-retention-days')).toBe(String(__RETENTION_DAYS__));
    expect(page.querySelectorAll('[style]')).toHaveLength(0);
    expect(render('privacy').head).toContain('<title>Privacyverklaring | ');
  });

  it('prerenders the build year and moves to the visitor’s year after hydration, without a mismatch', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(__BUILD_YEAR__ + 1, 0, 1));
    expect(render('home').html.includes(`© <!-- -->${__BUILD_YEAR__}`)).toBe(true);
    const { container, recoverable, consoleError } = hydrate('home');
    expect(recoverable).not.toHaveBeenCalled();
    expect(consoleError).not.toHaveBeenCalled();
    expect(container.querySelector('.footer-legal')).toHaveTextContent(`© ${__BUILD_YEAR__ + 1}`);
    vi.useRealTimers();
  });
});
