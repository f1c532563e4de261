import { describe, expect, it } from 'vitest';
import { CACHE_CONTROL, cacheControlFor } from '../src/cache-control';

describe('cacheControlFor', () => {
  it.each([
    ['/assets/index-Ab12Cd34.js', CACHE_CONTROL.hashedAsset],
    ['/assets/logo-Ab12Cd34.png', CACHE_CONTROL.hashedAsset],
    ['/', CACHE_CONTROL.html],
    ['/index.html', CACHE_CONTROL.html],
    ['/controleer-bericht/email-message.html', CACHE_CONTROL.html],
    ['/favicon.svg', CACHE_CONTROL.image],
    ['/favicon.ico', CACHE_CONTROL.image],
    ['/apple-touch-icon.png', CACHE_CONTROL.image],
    ['/og-image.png', CACHE_CONTROL.image],
    ['/manifest.webmanifest', CACHE_CONTROL.other],
    ['/robots.txt', CACHE_CONTROL.other],
    ['/sitemap.xml', CACHE_CONTROL.other],
  ])('gives %s %s', (path, expected) => {
    expect(cacheControlFor(path)).toBe(expected);
  });

  it('lets no kind but the hashed assets be cached as immutable, and revalidates HTML every time', () => {
    expect(Object.entries(CACHE_CONTROL).filter(([, value]) => value.includes('immutable'))).toEqual([
      ['hashedAsset', CACHE_CONTROL.hashedAsset],
    ]);
    expect(CACHE_CONTROL.html).toBe('no-cache');
  });
});
