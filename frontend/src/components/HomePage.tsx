import { About } from './About';
import { Contact } from './Contact';
import { Footer } from './Footer';
import { Header } from './Header';
import { Hero } from './Hero';
import { Services } from './Services';
import { SkipLink } from './SkipLink';
import { ToastProvider, Toaster } from './Toaster';

export function HomePage() {
  return (
    <ToastProvider>
      <SkipLink />
      <Header />
      <main id="main" tabIndex={-1}>
        <Hero />
        <About />
        <Services />
        <Contact />
      </main>
      <Footer />
      <Toaster />
    </ToastProvider>
  );
}
