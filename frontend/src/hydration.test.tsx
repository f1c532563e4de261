import { useState } from 'react';
import { act } from '@testing-library/react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Part } from './components/Part';
import { APP_STARTED_ATTRIBUTE, EARLY_TAP_ATTRIBUTE, HYDRATED_MARK, scheduleHydration, takeEarlyTap } from './hydration';
import { FakeIntersectionObserver } from '../test/browser-fakes';

/** A section whose button counts its clicks: it answers only once React has hydrated it. */
function Section({ id }: { id: string }) {
  const [clicks, setClicks] = useState(0);
  return (
    <section id={id}>
      <button id={`${id}-button`} type="button" onClick={() => setClicks((n) => n + 1)}>
        {id} {clicks}
      </button>
      <input aria-label={`${id} field`} />
    </section>
  );
}

const IDS = ['one', 'two', 'three'];
function Page() {
  return (
    <main>
      {IDS.map((id) => (
        <Part key={id} id={id}>
          <Section id={id} />
        </Part>
      ))}
    </main>
  );
}

let root: Root | undefined;
let container: HTMLElement;
const marks = () =>
  performance
    .getEntriesByType('mark')
    .map((mark) => mark.name)
    .filter((name) => name.startsWith(HYDRATED_MARK));
const button = (id: string) => container.querySelector<HTMLButtonElement>(`#${id} button`)!;
/** Runs `work` in act() and waits for everything it sets off in promises (React's hydration, a gate opening). */
const settle = (work: () => void) => act(() => Promise.resolve().then(work));
/** An idle period: the schedule lets at most one part through in each; React hydrates it once the gate's promise settles. */
const idle = () => settle(() => vi.advanceTimersByTime(1));

/** The prerendered page, hydrated as boot.tsx does it: behind the schedule. */
async function hydrate() {
  container = document.createElement('div');
  container.innerHTML = renderToString(<Page />);
  document.body.append(container);
  const html = container.innerHTML;
  const recoverable = vi.fn();
  scheduleHydration(IDS);
  await settle(() => {
    root = hydrateRoot(container, <Page />, { onRecoverableError: recoverable });
  });
  return { html, recoverable };
}

beforeEach(() => {
  // Timers only: the marks go to the real performance timeline.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  performance.clearMarks();
  // jsdom has no requestIdleCallback; every browser but Safari has, and the schedule falls back to a timer there.
  expect('requestIdleCallback' in window).toBe(false);
});
afterEach(async () => {
  if (root) {
    // Every part's turn comes, and the schedule ends.
    for (let i = 0; i < IDS.length + 1; i++) await idle();
    expect(marks()).toContain(HYDRATED_MARK);
  }
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
  vi.useRealTimers();
});

describe('hydration in slices', () => {
  it('renders a part straight through when nothing is scheduled (the prerender, a fresh render)', () => {
    const page = new DOMParser().parseFromString(renderToString(<Page />), 'text/html');
    expect([...page.querySelectorAll('button')].map((b) => b.textContent)).toEqual(['one 0', 'two 0', 'three 0']);
  });

  it('keeps every part as prerendered until its turn, then hydrates one part per idle period, in page order', async () => {
    const { html, recoverable } = await hydrate();
    expect(container.innerHTML).toBe(html);

    const hydratedAfterEachIdle: string[][] = [];
    for (let i = 0; i < 4; i++) {
      await idle();
      hydratedAfterEachIdle.push(marks());
    }
    expect(hydratedAfterEachIdle).toEqual([
      ['hydrated:one'],
      ['hydrated:one', 'hydrated:two'],
      ['hydrated:one', 'hydrated:two', 'hydrated:three'],
      ['hydrated:one', 'hydrated:two', 'hydrated:three', HYDRATED_MARK],
    ]);
    act(() => button('two').click());
    expect(button('two').textContent).toBe('two 1');
    expect(recoverable).not.toHaveBeenCalled();
  });

  it('lets a part near the viewport through before the parts above it', async () => {
    await hydrate();
    const observer = FakeIntersectionObserver.instances.at(-1)!;
    expect([...observer.targets].map((target) => target.id)).toEqual(IDS);
    act(() => observer.report(container.querySelector('#three')!, 0.2));
    await idle();
    expect(marks()).toEqual(['hydrated:three']);
  });

  it.each(['click', 'keydown', 'focusin'] as const)('hydrates a waiting part at once on %s, and the event reaches it', async (type) => {
    await hydrate();
    if (type === 'click') {
      act(() => button('three').click());
      expect(button('three').textContent).toBe('three 1');
    } else {
      const field = container.querySelector<HTMLInputElement>('#three input')!;
      act(() => void field.dispatchEvent(new Event(type, { bubbles: true })));
    }
    expect(marks()).toEqual(['hydrated:three']);
    // The others still wait for their turn.
    expect(button('one').textContent).toBe('one 0');
    act(() => button('one').click());
    expect(button('one').textContent).toBe('one 1');
  });

  it('lets a part in at once when the visitor used it before React hydrated anything', async () => {
    const html = renderToString(<Page />);
    container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    scheduleHydration(IDS);
    // Before React has hydrated anything.
    container.querySelector('#two input')!.dispatchEvent(new Event('focusin', { bubbles: true }));
    await settle(() => {
      root = hydrateRoot(container, <Page />);
    });
    expect(marks()).toEqual(['hydrated:two']);
  });

  it('marks the page hydrated at once when it has no parts', async () => {
    container = document.createElement('div');
    container.innerHTML = renderToString(<p>Geen delen</p>);
    document.body.append(container);
    scheduleHydration([]);
    await settle(() => {
      root = hydrateRoot(container, <p>Geen delen</p>);
    });
    await idle();
    expect(marks()).toEqual([HYDRATED_MARK]);
  });

  it('replays a tap the loader held from before the app started, once, when the part has hydrated, and lets that part through first', async () => {
    container = document.createElement('div');
    container.innerHTML = renderToString(<Page />);
    document.body.append(container);
    // What the loader (loader.ts) leaves on <html> when a button of the app's is tapped before the app starts.
    document.documentElement.setAttribute(EARLY_TAP_ATTRIBUTE, 'three-button');
    const tapped = takeEarlyTap();
    expect(tapped).toBe(container.querySelector('#three-button'));
    // The loader hands over no more taps: React hears them from now on.
    expect(document.documentElement.hasAttribute(APP_STARTED_ATTRIBUTE)).toBe(true);
    expect(document.documentElement.hasAttribute(EARLY_TAP_ATTRIBUTE)).toBe(false);
    scheduleHydration(IDS, tapped);
    await settle(() => {
      root = hydrateRoot(container, <Page />);
    });
    expect(marks()).toEqual(['hydrated:three']);
    await settle(() => vi.advanceTimersByTime(0));
    expect(button('three').textContent).toBe('three 1');
    for (let i = 0; i < IDS.length + 1; i++) await idle();
    expect(button('three').textContent).toBe('three 1');
    document.documentElement.removeAttribute(APP_STARTED_ATTRIBUTE);
  });

  it('starts with no tap to replay when the visitor tapped nothing', () => {
    expect(takeEarlyTap()).toBeUndefined();
    document.documentElement.removeAttribute(APP_STARTED_ATTRIBUTE);
  });
});
