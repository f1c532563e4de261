import { firm, hero } from '../content/site';

/**
 * The files the build renders from the mark and the content (build/brand-files.ts), at the fixed
 * addresses browsers and other sites ask for: the head of every page links them.
 */
export const BRAND_FILES = {
  faviconSvg: '/favicon.svg',
  /** Asked for by name by browsers and tools that take no SVG. */
  faviconIco: '/favicon.ico',
  /** Asked for by name by iOS and iPadOS for a home-screen bookmark. */
  appleTouchIcon: '/apple-touch-icon.png',
  icon192: '/icon-192.png',
  icon512: '/icon-512.png',
  maskableIcon: '/icon-maskable-512.png',
  manifest: '/manifest.webmanifest',
  /** The picture a link to the site shows when shared (Open Graph, X). */
  shareImage: '/og-image.png',
} as const;

/** The share picture's size: what Open Graph and X's large summary card expect. */
export const SHARE_IMAGE = {
  width: 1200,
  height: 630,
  alt: `${firm.name}: ${hero.headline.lead}. ${hero.headline.accent}.`,
} as const;
