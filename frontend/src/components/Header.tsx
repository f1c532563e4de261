import { nav } from '../content/site';
import { useScrolledPast } from '../hooks/useScrolledPast';
import { Icon } from './Icon';
import { Logo } from './Logo';

/** Past this scroll position the header turns solid (spec: more than 10 px). */
export const HEADER_SOLID_AFTER_PX = 10;
export const MENU_ID = 'site-menu';

/**
 * `linksFrom` is put before the section anchors: '' on the home page (the links scroll), '/'
 * on other pages (the links go to the home page's sections).
 *
 * The phone's menu is a popover its button opens (the Popover API): the browser opens and
 * closes it, from the first paint on, before and without the app. It closes on Escape (focus
 * back on the button), on a tap outside it, and on a tap on one of its links (the loader);
 * the button is announced as expanded while it is open; the stylesheet keeps the page behind
 * it still. Nothing of it waits for the app.
 */
export function Header({ linksFrom = '' }: { linksFrom?: '' | '/' }) {
  const scrolled = useScrolledPast(HEADER_SOLID_AFTER_PX);
  return (
    <header className={scrolled ? 'site-header is-scrolled' : 'site-header'}>
      <div className="container header-inner">
        <a className="header-logo" href="/" aria-label={nav.homeLinkLabel}>
          <Logo />
        </a>
        <nav className="header-nav" aria-label={nav.label}>
          <button type="button" className="menu-toggle" popoverTarget={MENU_ID} aria-controls={MENU_ID}>
            <Icon name="menu" className="menu-icon-closed" />
            <Icon name="close" className="menu-icon-open" />
            <span className="visually-hidden">{nav.menuButton}</span>
          </button>
          <ul id={MENU_ID} className="nav-list" popover="auto">
            {nav.links.map((link) => (
              <li key={link.href}>
                <a className="nav-link" href={linksFrom + link.href}>
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
