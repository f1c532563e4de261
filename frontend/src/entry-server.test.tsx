import type { Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from './entry-server';
import type { Route } from './routes';
import { asRead } from '@site/testing/as-read';

let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  unmount = undefined;
  document.body.innerHTML = '';
});

/** React's own property on an element it has hydrated. */
const hydrated = (element: Element | null) => element !== null && Object.keys(element).some((key) => key.startsWith('__reactFiber'));

/** Puts prerendered markup in the page and hydrates it as main.tsx does, the pages that are chunks of their own included. */
async function hydrate(route: Route) {
  const container = document.createElement('div');
  container.innerHTML = (await render(route)).html;
  document.body.append(container);
  // The browser never shares React with the prerender: the server renderer leaves its mark
  // on the contexts it rendered, so the page hydrates with modules of its own.
  vi.resetModules();
  const [{ act, StrictMode }, { hydrateRoot }, { App }] = await Promise.all([import('react'), import('react-dom/client'), import('./App')]);
  // What @testing-library/react sets for its own act, which is bound to the other React.
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  const recoverable = vi.fn();
  const consoleError = vi.spyOn(console, 'error');
  let root: Root | undefined;
  act(() => {
    root = hydrateRoot(
      container,
      <StrictMode>
        <App route={route} />
      </StrictMode>,
      { onRecoverableError: recoverable },
    );
  });
  await act(() => Promise.all([import('./components/PrivacyPage'), import('./contact/FormResult')]));
  unmount = () => act(() => root?.unmount());
  return { container, recoverable, consoleError };
}

describe('prerender and hydration', () => {
  it.each<Route>([
    'home',
    'privacy',
    'not-found',
    'form-sent',
    'form-check',
    'form-check/email-message',
    'form-failed',
    'form-limited',
    'form-crossSite',
  ])('hydrates the prerendered %s page without a mismatch', async (route) => {
    const { container, recoverable, consoleError } = await hydrate(route);
    expect(recoverable).not.toHaveBeenCalled();
    expect(consoleError).not.toHaveBeenCalled();
    expect(hydrated(container.querySelector('h1'))).toBe(true);
  });

  it('prerenders the whole Dutch page with nothing hidden and the first expertise term', async () => {
    const { html } = await render('home');
    const page = new DOMParser().parseFromString(html, 'text/html');
    expect(asRead(page.querySelector('h1')!.textContent)).toBe('Finance Professionals Met een streepje voor');
    for (const text of [
      'Professioneel advies en ondersteuning voor uw bedrijf',
      'Vraag meer informatie aan',
      'Stuur ons een bericht',
      'Alle rechten voorbehouden',
    ]) {
      expect(asRead(page.body.textContent)).toContain(text);
    }
    // Nothing starts hidden, and no inline style the CSP would refuse.
    expect(page.querySelectorAll('[data-reveal], [style]')).toHaveLength(0);
    expect(page.querySelector('.expertise-term[data-active]')!.textContent).toBe('Compliance');
  });

  it('prerenders the privacy statement with the retention from the build, and no inline style', async () => {
    const privacy = await render('privacy');
    const page = new DOMParser().parseFromString(privacy.html, 'text/html');
    expect(asRead(page.querySelector('h1')!.textContent)).toBe('Privacyverklaring');
    expect(page.querySelector('[data-retention-days]')!.getAttribute('data-retention-days')).toBe(String(__RETENTION_DAYS__));
    expect(page.querySelectorAll('[style]')).toHaveLength(0);
    expect(privacy.head).toContain('<title>Privacyverklaring | ');
  });

  it('prerenders the build year and moves to the visitor’s year after hydration, without a mismatch', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(__BUILD_YEAR__ + 1, 0, 1));
    expect((await render('home')).html.includes(`© <!-- -->${__BUILD_YEAR__}`)).toBe(true);
    const { container, recoverable, consoleError } = await hydrate('home');
    expect(recoverable).not.toHaveBeenCalled();
    expect(consoleError).not.toHaveBeenCalled();
    expect(container.querySelector('.footer-legal')).toHaveTextContent(`© ${__BUILD_YEAR__ + 1}`);
    vi.useRealTimers();
  });
});
