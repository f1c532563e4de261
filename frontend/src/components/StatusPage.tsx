import type { ReactNode } from 'react';
import { Footer } from './Footer';
import { Header } from './Header';
import { SkipLink } from './SkipLink';
import { joinLastWords } from '../typography';

interface StatusPageProps {
  /** Large and decorative; the headline says the same in words. */
  code: ReactNode;
  headline: string;
  /** The 404 and error screens keep the product's English wording; the form's result pages are Dutch (null). */
  headlineLang?: 'en' | null;
  children: ReactNode;
}

/**
 * The frame of the 404, error and form result screens: the site's header with its links to
 * the home page's sections, the message's headline on the navy of the hero, what to do next
 * on white, and the footer, so the navy hero and the navy footer never meet.
 */
export function StatusPage({ code, headline, headlineLang = 'en', children }: StatusPageProps) {
  return (
    <>
      <SkipLink />
      <Header linksFrom="/" />
      <main id="main" className="status-main" tabIndex={-1}>
        <div className="status-hero">
          <div className="container status-inner">
            <p className="status-code" aria-hidden="true">
              {code}
            </p>
            <h1 className="status-title" lang={headlineLang ?? undefined}>
              {joinLastWords(headline, 'title')}
            </h1>
          </div>
        </div>
        <div className="container status-inner status-body">{children}</div>
      </main>
      <Footer />
    </>
  );
}
