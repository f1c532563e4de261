import { nav } from '../content/site';

/** First tab stop on every page: keyboard users jump past the header. */
export function SkipLink() {
  return (
    <a className="skip-link" href="#main">
      {nav.skipLink}
    </a>
  );
}
