import type { ReactNode } from 'react';
import { nav } from '../content/site';
import { Footer } from './Footer';
import { Logo } from './Logo';
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

/** The frame of the 404, error and form result screens: the firm's header and footer around one message. */
export function StatusPage({ code, headline, headlineLang = 'en', children }: StatusPageProps) {
  return (
    <>
      <SkipLink />
      <header className="status-header">
        <div className="container">
          <a className="header-logo" href="/" aria-label={nav.homeLinkLabel}>
            <Logo />
          </a>
        </div>
      </header>
      <main id="main" className="status-main" tabIndex={-1}>
        <div className="container status-inner">
          <p className="status-code" aria-hidden="true">
            {code}
          </p>
          <h1 className="status-title" lang={headlineLang ?? undefined}>
            {joinLastWords(headline, 'title')}
          </h1>
          {children}
        </div>
      </main>
      <Footer />
    </>
  );
}
