import type { ComponentType } from 'react';
import { About } from './About';
import { CallBar } from './CallBar';
import { Contact } from '../contact/Contact';
import { Footer } from './Footer';
import { Header } from './Header';
import { Hero } from './Hero';
import { Part } from './Part';
import { Services } from './Services';
import { SkipLink } from './SkipLink';
import { sectionIds } from '../content/site';
import { ToastProvider, Toaster } from '../toast';

type Sections = readonly (readonly [string, ComponentType])[];

/**
 * The sections of <main> by the id of their element. Each is a part that hydrates on its own
 * turn (see hydration.ts), so no single task hydrates the page; the header, the footer and
 * the toasts hydrate with the page itself. The sections between the hero and the contact
 * section are where a phone keeps the call bar in reach.
 */
const BEFORE: Sections = [[sectionIds.home, Hero]];
const ALONG_THE_CALL_BAR: Sections = [
  [sectionIds.about, About],
  [sectionIds.services, Services],
];
const AFTER: Sections = [[sectionIds.contact, Contact]];

export const HOME_PARTS: readonly string[] = [...BEFORE, ...ALONG_THE_CALL_BAR, ...AFTER].map(([id]) => id);

function Parts({ sections }: { sections: Sections }) {
  return sections.map(([id, Section]) => (
    <Part key={id} id={id}>
      <Section />
    </Part>
  ));
}

export function HomePage() {
  return (
    <ToastProvider>
      <SkipLink />
      <Header />
      <main id="main" tabIndex={-1}>
        <Parts sections={BEFORE} />
        {/* The bar's containing block: it sticks to the bottom of the screen only while this is in view. */}
        <div className="call-bar-track">
          <Parts sections={ALONG_THE_CALL_BAR} />
          <CallBar />
        </div>
        <Parts sections={AFTER} />
      </main>
      <Footer />
      <Toaster />
    </ToastProvider>
  );
}
