import { act, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { nav as navText } from '../content/site';
import { Header } from './Header';

function scrollTo(y: number) {
  act(() => {
    window.scrollY = y;
    window.dispatchEvent(new Event('scroll'));
  });
}

describe('Header', () => {
  it('is transparent at 10 px and solid from 11 px, and transparent again when scrolled back', () => {
    scrollTo(0);
    render(<Header />);
    const header = screen.getByRole('banner');
    expect(header).not.toHaveClass('is-scrolled');
    scrollTo(10);
    expect(header).not.toHaveClass('is-scrolled');
    scrollTo(11);
    expect(header).toHaveClass('is-scrolled');
    scrollTo(3);
    expect(header).not.toHaveClass('is-scrolled');
  });

  it('is solid at once when the page opens already scrolled (a #section link)', () => {
    scrollTo(1200);
    render(<Header />);
    expect(screen.getByRole('banner')).toHaveClass('is-scrolled');
    scrollTo(0);
  });

  it('has a logo link to / and the four section links', () => {
    render(<Header />);
    expect(screen.getByRole('link', { name: navText.homeLinkLabel })).toHaveAttribute('href', '/');
    const nav = screen.getByRole('navigation', { name: navText.label });
    expect(
      within(nav)
        // In the phone's popover, which jsdom (without the site's stylesheet) leaves hidden.
        .getAllByRole('link', { hidden: true })
        .map((a) => [a.textContent, a.getAttribute('href')]),
    ).toEqual([
      ['Home', '#home'],
      ['Over ons', '#about'],
      ['Diensten', '#services'],
      ['Contact', '#contact'],
    ]);
  });

  it('puts the links in a popover its button opens and closes, with no state of the app’s (the browser does it, test/browser)', () => {
    render(<Header />);
    const button = screen.getByRole('button', { name: navText.menuButton });
    const menu = document.getElementById(button.getAttribute('popovertarget')!)!;
    expect(menu).toHaveAttribute('popover', 'auto');
    expect(button).toHaveAttribute('aria-controls', menu.id);
    expect(within(menu).getAllByRole('link', { hidden: true })).toHaveLength(navText.links.length);
    // The browser announces the button as expanded while its popover is open: no attribute of the app's says otherwise.
    expect(button).not.toHaveAttribute('aria-expanded');
  });
});
