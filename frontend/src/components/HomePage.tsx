import { Suspense, type ReactNode } from 'react';
import { About } from './About';
import { Contact } from './Contact';
import { Footer } from './Footer';
import { Header } from './Header';
import { Hero } from './Hero';
import { Services } from './Services';
import { SkipLink } from './SkipLink';
import { ToastProvider, Toaster } from '../toast';

/**
 * A boundary per section lets React hydrate the page in several short tasks instead of one
 * long one, so the main thread stays free for input (Total Blocking Time). Nothing here
 * suspends: the prerendered markup is shown as it is until each part is hydrated.
 */
function Part({ children }: { children: ReactNode }) {
  return <Suspense>{children}</Suspense>;
}

export function HomePage() {
  return (
    <ToastProvider>
      <SkipLink />
      <Header />
      <main id="main" tabIndex={-1}>
        <Part>
          <Hero />
        </Part>
        <Part>
          <About />
        </Part>
        <Part>
          <Services />
        </Part>
        <Part>
          <Contact />
        </Part>
      </main>
      <Part>
        <Footer />
      </Part>
      <Toaster />
    </ToastProvider>
  );
}
