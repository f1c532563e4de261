import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { FakeIntersectionObserver, setReducedMotion } from './browser-fakes';

// jsdom has neither matchMedia nor IntersectionObserver; every browser the site supports has both.
beforeEach(() => {
  setReducedMotion(false);
  FakeIntersectionObserver.instances.length = 0;
  window.IntersectionObserver = FakeIntersectionObserver as unknown as typeof IntersectionObserver;
});

afterEach(() => cleanup());

// jsdom lays nothing out, so it cannot scroll anything into view; where it scrolls to is for the browser tests.
Element.prototype.scrollIntoView = () => {};
