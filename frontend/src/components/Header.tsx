import { useCallback, useRef, useState } from 'react';
import { nav } from '../content/site';
import { useOpenMenu } from '../hooks/useOpenMenu';
import { useScrolledPast } from '../hooks/useScrolledPast';
import { Icon } from './Icon';
import { Logo } from './Logo';

/** Past this scroll position the header turns solid (spec: more than 10 px). */
export const HEADER_SOLID_AFTER_PX = 10;
const MENU_ID = 'site-menu';

/**
 * `linksFrom` is put before the section anchors: '' on the home page (the links scroll), '/'
 * on other pages (the links go to the home page's sections).
 */
export function Header({ linksFrom = '' }: { linksFrom?: '' | '/' }) {
  const scrolled = useScrolledPast(HEADER_SOLID_AFTER_PX);
  const [menuOpen, setMenuOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const closeMenu = useCallback(() => setMenuOpen(false), []);
  useOpenMenu(menuOpen, closeMenu, { menu, button: toggle });

  const className = ['site-header', scrolled && 'is-scrolled', menuOpen && 'is-open'].filter(Boolean).join(' ');
  return (
    <header className={className}>
      <div className="container header-inner">
        <a className="header-logo" href="/" aria-label={nav.homeLinkLabel}>
          <Logo />
        </a>
        <nav className="header-nav" aria-label={nav.label}>
          <button
            ref={toggle}
            type="button"
            className="menu-toggle"
            aria-expanded={menuOpen}
            aria-controls={MENU_ID}
            onClick={() => setMenuOpen((open) => !open)}
          >
            <Icon name={menuOpen ? 'close' : 'menu'} />
            <span className="visually-hidden">{nav.menuButton}</span>
          </button>
          <ul id={MENU_ID} ref={menu} className="nav-list">
            {nav.links.map((link) => (
              <li key={link.href}>
                <a className="nav-link" href={linksFrom + link.href} onClick={() => setMenuOpen(false)}>
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </header>
  );
}
