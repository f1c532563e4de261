import { firm, footer, nav, phoneHref } from '../content/site';
import { useCurrentYear } from '../hooks/useCurrentYear';
import { joinLastWords } from '../typography';
import { Logo } from './Logo';

export function Footer() {
  const year = useCurrentYear();
  const { street, postalCode, city } = firm.address;
  return (
    <footer className="site-footer">
      <div className="container">
        <div className="footer-columns">
          <div className="footer-brand">
            <Logo />
            <p className="footer-tagline">{joinLastWords(footer.tagline)}</p>
          </div>
          <nav aria-label={footer.navTitle}>
            <h2 className="footer-title">{footer.navTitle}</h2>
            <ul className="footer-list">
              {nav.links.map((link) => (
                <li key={link.href}>
                  {/* From / so the links also work on the 404 page. */}
                  <a href={`/${link.href}`}>{link.label}</a>
                </li>
              ))}
            </ul>
          </nav>
          <div>
            <h2 className="footer-title">{footer.contactTitle}</h2>
            <address className="footer-list">
              <span>{street}</span>
              <span>
                {postalCode} {city}
              </span>
              <a href={`mailto:${firm.email}`}>{firm.email}</a>
              <a href={phoneHref}>{firm.phone}</a>
            </address>
          </div>
        </div>
        <div className="footer-bottom">
          <p className="footer-legal">
            © {year} {firm.name}. {footer.rights}.
          </p>
          {/* Dutch law requires the KvK number on the website; the btw-id is customary beside it. */}
          <ul className="footer-meta" aria-label={footer.legalLabel}>
            <li>
              {footer.kvkLabel} {firm.kvk}
            </li>
            <li>
              {footer.vatLabel} {firm.vatId}
            </li>
            <li>
              <a href={footer.privacyLink.href}>{footer.privacyLink.label}</a>
            </li>
          </ul>
        </div>
      </div>
    </footer>
  );
}
