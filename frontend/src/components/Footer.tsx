import { firm, footer } from '../content/site';
import { useCurrentYear } from '../hooks/useCurrentYear';
import { Logo } from './Logo';

export function Footer() {
  const year = useCurrentYear();
  return (
    <footer className="site-footer">
      <div className="container footer-inner">
        <div className="footer-brand">
          <Logo />
          <p className="footer-tagline">{footer.tagline}</p>
        </div>
        <p className="footer-legal">
          © {year} {firm.name}. {footer.rights}.
        </p>
      </div>
    </footer>
  );
}
