import { About } from './About';
import { Contact } from './Contact';
import { Footer } from './Footer';
import { Header } from './Header';
import { Hero } from './Hero';
import { Part } from './Part';
import { Services } from './Services';
import { SkipLink } from './SkipLink';
import { sectionIds } from '../content/site';
import { ToastProvider, Toaster } from '../toast';

/**
 * The sections of <main> by the id of their element. Each is a part that hydrates on its own
 * turn (see hydration.ts), so no single task hydrates the page; the header, the footer and
 * the toasts hydrate with the page itself.
 */
const SECTIONS = [
  [sectionIds.home, Hero],
  [sectionIds.about, About],
  [sectionIds.services, Services],
  [sectionIds.contact, Contact],
] as const;

export const HOME_PARTS: readonly string[] = SECTIONS.map(([id]) => id);

export function HomePage() {
  return (
    <ToastProvider>
      <SkipLink />
      <Header />
      <main id="main" tabIndex={-1}>
        {SECTIONS.map(([id, Section]) => (
          <Part key={id} id={id}>
            <Section />
          </Part>
        ))}
      </main>
      <Footer />
      <Toaster />
    </ToastProvider>
  );
}
